import { useEffect, useRef } from 'react';
import { Box, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ADMIN_PAGE_SIZE } from '#common/limits.ts';
import { adminMessages } from '#common/messages.ts';
import { useAdminUsers } from '#web/api/admin/users.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { AdminFrame } from '#web/features/admin/admin-frame.tsx';
import { useUsersAddress } from './users-address.ts';
import { UsersCards } from './users-cards.tsx';
import { UsersSearch } from './users-search.tsx';
import { UsersTable } from './users-table.tsx';
import { userTexts as ut } from './user-texts.ts';
import { AdminPager } from '#web/features/admin/admin-pager.tsx';
import { pageCountOf } from '#web/ui/page-count.ts';

/** /admin/users: the paged, searchable user list (spec 000 §2, §9), its page and search in the address. */
export function UsersPage() {
  const view = useUsersAddress();
  const users = useAdminUsers({ page: view.page, pageSize: ADMIN_PAGE_SIZE, username: view.username });
  useUsersFailureToast(users.error);

  const count = users.data?.count ?? null;
  const pageCount = pageCountOf(count ?? 0, ADMIN_PAGE_SIZE);
  const emptyText = view.username
    ? ut.noMatch(view.username)
    : view.page > 1 && (count ?? 0) > 0
      ? ut.noPage(view.page)
      : ut.noUsers;

  const failed = users.isError && !users.data;
  const list = {
    users: failed ? [] : users.data?.results,
    stale: users.isPlaceholderData,
    emptyText: failed ? adminMessages.usersFailed : emptyText,
  };

  return (
    <AdminFrame title={ut.usersTitle}>
      <Stack gap="md" mt="md">
        <UsersSearch username={view.username} onSearch={view.setUsername} />
        {/* A table from 768 px; a card per user on phones, where seven columns would scroll sideways. */}
        <Box visibleFrom="sm">
          <UsersTable {...list} />
        </Box>
        <Box hiddenFrom="sm">
          <UsersCards {...list} />
        </Box>
        <AdminPager
          page={view.page}
          pageCount={Math.max(pageCount, count === null ? view.page : 1)}
          countText={count === null ? '' : ut.userCount(count)}
          onPageChange={view.setPage}
        />
      </Stack>
    </AdminFrame>
  );
}

/** 'Failed to get users.' once per failure, with the server's reason under it when it sent one. */
function useUsersFailureToast(error: Error | null) {
  const shown = useRef<Error | null>(null);
  useEffect(() => {
    if (!error || shown.current === error) return;
    shown.current = error;
    const reason = failureMessage(error, adminMessages.usersFailed);
    notifications.show({
      color: 'red',
      title: adminMessages.usersFailed,
      message: reason === adminMessages.usersFailed ? undefined : reason,
    });
  }, [error]);
}
