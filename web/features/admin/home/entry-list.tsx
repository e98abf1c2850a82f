import { List, Text } from '@mantine/core';
import type { AuditEntryView } from '#common/contract/admin.ts';
import { AuditEntryLine } from '#web/features/admin/audit-entry-summary.tsx';

/** The newest audit entries, one a line (time, user, action, target), newest first as the server sends them. */
export function EntryList({
  entries,
  label,
  empty,
}: {
  entries: AuditEntryView[];
  label: string;
  empty: string;
}) {
  if (entries.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <List listStyleType="none" spacing={6} aria-label={label}>
      {entries.map((entry) => (
        <List.Item key={entry.id}>
          <AuditEntryLine entry={entry} />
        </List.Item>
      ))}
    </List>
  );
}
