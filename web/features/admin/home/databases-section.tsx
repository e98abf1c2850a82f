import { Group, List, Stack, Text } from '@mantine/core';
import type { HealthResponse } from '#common/contract/health.ts';
import { AdminSection } from '#web/features/admin/admin-section.tsx';
import { StatusBadge } from './status-badge.tsx';

/** "Databases": the app store and each registered database with its engine and an Up/Down badge; an app store
 * that answers but cannot be written shows as Degraded. */
export function DatabasesSection({ health }: { health: HealthResponse }) {
  const { appStore } = health;
  const appStoreStatus = appStore.status === 'down' ? 'down' : appStore.writable ? 'up' : 'degraded';
  return (
    <AdminSection fill title="Databases" aside={<StatusBadge status={health.status} />}>
      <List listStyleType="none" spacing="xs" aria-label="Database health">
        <HealthRow
          name="App store"
          engine={appStore.engine}
          status={appStoreStatus}
          note={
            appStore.error ??
            (appStoreStatus === 'degraded'
              ? 'Answers but cannot be written: reads work; sign-in and changes do not.'
              : undefined)
          }
        />
        {health.databases.map((database) => (
          <HealthRow
            key={database.name}
            name={database.name}
            engine={database.engine}
            status={database.status}
            note={database.error}
          />
        ))}
      </List>
      {health.databases.length === 0 && (
        <Text size="sm" c="dimmed">
          No database is registered.
        </Text>
      )}
    </AdminSection>
  );
}

function HealthRow({
  name,
  engine,
  status,
  note,
}: {
  name: string;
  engine: string;
  status: 'up' | 'degraded' | 'down';
  note: string | undefined;
}) {
  return (
    <List.Item styles={{ itemWrapper: { width: '100%' }, itemLabel: { width: '100%' } }}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
          <Text size="xs" c="dimmed">
            {engine}
          </Text>
          {note && (
            <Text size="xs" c={status === 'down' ? 'var(--mantine-color-error)' : 'dimmed'}>
              {note}
            </Text>
          )}
        </Stack>
        <StatusBadge status={status} />
      </Group>
    </List.Item>
  );
}
