import { notifications } from '@mantine/notifications';
import { accountMessages as m } from '#common/messages.ts';

/** A failed send or check (spec 000 §8): the server's sentence when it has one, else 'Something went wrong.
 * Please try again.'. */
export function showFailure(error: unknown): void {
  const message =
    error instanceof Error && error.message ? error.message : m.pleaseTryAgain(m.somethingWentWrong);
  notifications.show({ color: 'red', message });
}
