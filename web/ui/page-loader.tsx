import { Center, Loader } from '@mantine/core';

/** Shown in the main area while a page's code or data loads. */
export function PageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py={96} role="status" aria-label={label}>
      <Loader />
    </Center>
  );
}
