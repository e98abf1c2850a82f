import { Badge, Group, Loader, Stack, Text } from '@mantine/core';
import { accountPageMessages as pm } from '#common/messages.ts';
import { useRoles } from '#web/api/account/roles.ts';

/** The roles list of Account Details (spec 000 §2), from GET /api/account/roles; a role's links show on hover. */
export function AccountRoles() {
  const roles = useRoles();
  return (
    <Stack gap={6}>
      <Text fw={500} size="sm" id="account-roles-label">
        {pm.roles}
      </Text>
      {roles.isPending ? (
        <Loader size="xs" role="status" aria-label={pm.roles} />
      ) : roles.isError ? (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {pm.rolesFailed} {roles.error.message}
        </Text>
      ) : roles.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {pm.noRoles}
        </Text>
      ) : (
        <Group
          gap="xs"
          component="ul"
          aria-labelledby="account-roles-label"
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
        >
          {roles.data.map((role) => (
            <li key={role.Id}>
              <Badge
                variant="light"
                size="lg"
                radius="sm"
                tt="none"
                title={role.Role_Links.map((l) => l.Link).join(', ')}
              >
                {role.Name}
              </Badge>
            </li>
          ))}
        </Group>
      )}
    </Stack>
  );
}
