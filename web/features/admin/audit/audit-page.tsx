import { Alert, Group, Loader, Pagination, Stack, Text } from '@mantine/core';
import { failureMessage } from '#web/api/failure-message.ts';
import { useAudit } from '#web/api/admin/audit.ts';
import { AdminFrame } from '#web/features/admin/admin-frame.tsx';
import { auditPageCount, auditRequest, hasFilters } from './audit-address.ts';
import { AuditFilters } from './audit-filters.tsx';
import { AuditTable } from './audit-table.tsx';
import { useAuditAddress } from './use-audit-address.ts';

const countFormat = new Intl.NumberFormat('en-US');

/** /admin/audit: the audit trail, filtered and paged by its address, each entry opening to its changes and undo. */
export function AuditPage() {
  const { address, setFilters, setPage, clear } = useAuditAddress();
  const audit = useAudit(auditRequest(address));
  const count = audit.data?.count ?? 0;
  const pageCount = auditPageCount(count);

  return (
    <AdminFrame title="Audit">
      <Stack gap="md" mt="md">
        <AuditFilters filters={address} onChange={setFilters} onClear={clear} />
        {audit.isError && (
          <Alert color="red" title="The audit trail could not be read">
            {failureMessage(audit.error, 'Failed to get the audit trail.')}
          </Alert>
        )}
        {audit.isPending ? (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">Loading the audit trail…</Text>
          </Group>
        ) : audit.data ? (
          <>
            <Text size="sm" c="dimmed" role="status">
              {count === 1 ? '1 entry' : `${countFormat.format(count)} entries`}, newest first
            </Text>
            <AuditTable
              entries={audit.data.results}
              busy={audit.isPlaceholderData}
              emptyText={
                hasFilters(address) ? 'No entries match these filters.' : 'The audit trail is empty.'
              }
            />
            <Group component="nav" aria-label="Pages" justify="center">
              <Pagination
                total={pageCount}
                value={Math.min(address.page, pageCount)}
                onChange={setPage}
                siblings={1}
                boundaries={1}
                getItemProps={(page) => ({
                  'aria-label': `Page ${page}`,
                  ...(page === address.page ? { 'aria-current': 'page' as const } : {}),
                })}
                getControlProps={(control) => ({
                  'aria-label': `${control[0]?.toUpperCase()}${control.slice(1)} page`,
                })}
              />
            </Group>
          </>
        ) : null}
      </Stack>
    </AdminFrame>
  );
}
