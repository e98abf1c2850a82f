import { Group, Text } from '@mantine/core';
import type { AuditEntryView } from '#common/contract/admin.ts';
import { auditTargetLabel, auditTimeLabel } from './audit-entry-text.ts';
import { auditEntryWhat } from './bulk-entry-text.ts';

/** What the trail says for an entry whose account no longer exists. */
export const deletedAccount = 'deleted account';

/** When an entry happened: short, with the full ISO instant as its title and dateTime. */
export function AuditTime({ at }: { at: string }) {
  return (
    <time dateTime={at} title={at}>
      {auditTimeLabel(at)}
    </time>
  );
}

/** Who made an entry: their username, or "deleted account" (dimmed) when the account is gone. */
export function AuditUser({ username }: { username: string | null }) {
  return username === null ? (
    <Text span inherit c="dimmed" fs="italic">
      {deletedAccount}
    </Text>
  ) : (
    <Text span inherit fw={500}>
      {username}
    </Text>
  );
}

/** One audit entry on a line: time, who, what (in words, the raw action as its title; a bulk change's sentence) and
 * on what. */
export function AuditEntryLine({
  entry,
}: {
  entry: Pick<AuditEntryView, 'at' | 'username' | 'action' | 'target'> &
    Partial<Pick<AuditEntryView, 'detail'>>;
}) {
  const target = auditTargetLabel(entry.target);
  return (
    <Group gap={6} wrap="wrap" fz="sm" component="span" style={{ rowGap: 0 }}>
      <Text span inherit c="dimmed">
        <AuditTime at={entry.at} />
      </Text>
      <AuditUser username={entry.username} />
      <Text span inherit title={entry.action}>
        {auditEntryWhat({ ...entry, detail: entry.detail ?? null })}
      </Text>
      {target && (
        <Text span inherit c="dimmed" style={{ wordBreak: 'break-word' }}>
          {target}
        </Text>
      )}
    </Group>
  );
}

export { auditActionLabel, auditTargetLabel, auditTimeLabel } from './audit-entry-text.ts';
