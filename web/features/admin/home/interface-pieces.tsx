import { useState, type ReactNode } from 'react';
import {
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy, IconPlus, IconTrash } from '@tabler/icons-react';
import { usePopup } from '#web/ui/popups.ts';
import { PhoneInput } from '#web/ui/phone-input.tsx';
import { AdminSection } from '#web/features/admin/admin-section.tsx';
import { SampleGrid } from './sample-grid.tsx';
import { LightBadge, StatusBadge } from './status-badge.tsx';

/** "Interface pieces": the living style sheet, the app's own pieces as they look in this theme and scheme. Loaded
 * lazily, after the overview. */
export function InterfacePieces() {
  return (
    <AdminSection fill title="Interface pieces">
      <Stack gap="lg">
        <Piece title="Buttons">
          <Group gap="sm">
            <Button leftSection={<IconDeviceFloppy size={16} aria-hidden="true" />}>Filled</Button>
            <Button variant="light">Light</Button>
            <Button variant="outline">Outline</Button>
            <Button variant="subtle">Subtle</Button>
            <Button variant="default">Default</Button>
            {/* red.9: white on Mantine's filled red (shade 7 in light) is 3.8:1, below WCAG AA's 4.5:1. */}
            <Button color="red.9" leftSection={<IconTrash size={16} aria-hidden="true" />}>
              Delete
            </Button>
            <Button disabled>Disabled</Button>
            <Button loading>Loading</Button>
          </Group>
        </Piece>
        <Piece title="Inputs">
          <Inputs />
        </Piece>
        <Piece title="Badges">
          <Group gap="xs">
            <StatusBadge status="up" />
            <StatusBadge status="degraded" />
            <StatusBadge status="down" />
            <LightBadge color="orange">Locked</LightBadge>
            <LightBadge color="green">Active</LightBadge>
            <LightBadge>Administrator</LightBadge>
            <LightBadge color="gray">Changed</LightBadge>
            <Badge tt="none">Filled</Badge>
            <Badge variant="outline" tt="none">
              Outline
            </Badge>
          </Group>
        </Piece>
        <Piece title="Toasts and modals">
          <Group gap="sm">
            <Button
              variant="default"
              onClick={() => notifications.show({ color: 'green', message: 'This is a success toast.' })}
            >
              Show a toast
            </Button>
            <ExampleModal />
          </Group>
        </Piece>
        <Piece title="Grid">
          <SampleGrid />
        </Piece>
      </Stack>
    </AdminSection>
  );
}

function Piece({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Title order={3} fz="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function Inputs() {
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm">
      <TextInput
        label="Name"
        placeholder="A text input with its message"
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={name.trim() === '' ? 'Name is required.' : null}
        withAsterisk
      />
      <PasswordInput label="Password" placeholder="A password input" autoComplete="off" />
      <Select
        label="Engine"
        placeholder="Pick an engine"
        data={['PostgreSQL', 'MySQL', 'SQL Server', 'SQLite']}
        defaultValue="PostgreSQL"
        allowDeselect={false}
      />
      <PhoneInput
        label="Phone"
        onChange={setPhone}
        error={phone !== '' && phone.length < 12 ? 'Enter all ten digits.' : null}
      />
      <Stack gap="sm" justify="center">
        <Checkbox label="A checkbox" defaultChecked />
        <Switch label="A switch" defaultChecked />
      </Stack>
      <Stack gap="sm" justify="center">
        <Checkbox label="A disabled checkbox" disabled />
        <Switch label="A disabled switch" disabled />
      </Stack>
    </SimpleGrid>
  );
}

function ExampleModal() {
  const [opened, { open, close }] = useDisclosure(false);
  usePopup(opened, close);
  return (
    <>
      <Button variant="default" leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={open}>
        Open a modal
      </Button>
      <Modal opened={opened} onClose={close} title="Example modal" centered>
        <Stack gap="md">
          <Text size="sm">
            Modals fade in and out, hold the focus while open and close with Escape, the Close button or a
            click outside.
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>Close</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
