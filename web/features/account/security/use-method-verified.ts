import { useCallback } from 'react';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { MethodVerified } from '#common/contract/account.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import type { ApiSuccess } from '#web/api/query.ts';

/** What a card does once the server accepted its code: the server has ended the other sessions and changed the
 * user, so the account data is fetched again; the server's sentence is the toast, and the recovery codes of a first
 * method go to the section to be shown once. */
export function useMethodVerified(onRecoveryCodes: (codes: string[]) => void) {
  const queryClient = useQueryClient();
  return useCallback(
    (answer: ApiSuccess<MethodVerified>) => {
      queryClient.setQueryData(queryKeys.account.user(), answer.data.user);
      void queryClient.invalidateQueries({ queryKey: queryKeys.account.all });
      if (answer.message) notifications.show({ color: 'green', message: answer.message });
      if (answer.data.recoveryCodes?.length) onRecoveryCodes(answer.data.recoveryCodes);
    },
    [queryClient, onRecoveryCodes],
  );
}
