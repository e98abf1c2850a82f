import {
  Alert,
  Button,
  Group,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconDownload } from '@tabler/icons-react';
import { JobProgress } from '#web/ui/job-progress.tsx';
import type { ImportStatus } from '#common/contract/imports.ts';
import { countsText, importText, rows } from './import-text.ts';

/** How many failures the page lists; the status holds up to 1,000 and the report every one. */
const LISTED = 200;

/**
 * A run's state: while it runs, its progress and Cancel; at its end, the counts (what a dry run would do, what a run
 * did), the first failures (row, column, message) and the full report as a CSV download; a stop's reason as the
 * server wrote it.
 */
export function ImportRunSection({
  status,
  onCancel,
  cancelling,
  onReport,
  reporting,
}: {
  status: ImportStatus;
  onCancel: () => void;
  cancelling: boolean;
  onReport: () => void;
  reporting: boolean;
}) {
  const dry = status.dryRun !== false;
  const what = dry ? 'Dry run' : 'Import';
  if (status.inProgress) {
    const started = status.state !== 'queued';
    const text = started ? `${status.percentageCompleted}% of the file read` : 'Starting…';
    return (
      <Paper withBorder p="md" component="section" aria-label={`${what} progress`}>
        <Stack gap="xs">
          <Text fw={600}>{dry ? 'Checking the whole file, writing nothing…' : 'Importing…'}</Text>
          <JobProgress
            label={`${what} progress`}
            text={text}
            percent={started ? status.percentageCompleted : null}
            cancel={{ label: 'Cancel', onClick: onCancel, disabled: cancelling }}
          />
        </Stack>
      </Paper>
    );
  }
  const listed = status.errors.slice(0, LISTED);
  return (
    <Stack gap="sm" component="section" aria-labelledby="import-result-title">
      <Title order={3} fz="h4" id="import-result-title">
        {dry ? 'Dry run result' : 'Import result'}
      </Title>
      {status.state === 'cancelled' && (
        <Alert color="yellow" variant="light">
          {dry ? 'The dry run was cancelled.' : importText.cancelled}
        </Alert>
      )}
      {status.state === 'failed' && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={18} aria-hidden="true" />}
          role="alert"
        >
          {status.error ?? `The ${dry ? 'dry run' : 'import'} stopped.`}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" aria-label="Counts">
        {countsText(status).map((count) => (
          <Paper key={count.label} withBorder p="sm">
            <Text size="xs" c="dimmed">
              {count.label}
            </Text>
            <Text
              fz="xl"
              fw={700}
              c={
                count.label.endsWith('fail') || count.label === 'Failed'
                  ? count.value > 0
                    ? 'red'
                    : undefined
                  : undefined
              }
            >
              {count.value.toLocaleString('en')}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      {status.failed > 0 && (
        <>
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm">
              {status.failed > listed.length
                ? `The first ${listed.length.toLocaleString('en')} of ${rows(status.failed)} that fail:`
                : `The ${rows(status.failed)} that fail:`}
            </Text>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconDownload size={14} aria-hidden="true" />}
              onClick={onReport}
              loading={reporting}
            >
              Download the full report (CSV)
            </Button>
          </Group>
          <ScrollArea.Autosize mah={300} type="auto" offsetScrollbars>
            <Table striped withTableBorder fz="sm" aria-label="Rows that fail">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Row</Table.Th>
                  <Table.Th scope="col">Column</Table.Th>
                  <Table.Th scope="col">Message</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {listed.map((failure, index) => (
                  <Table.Tr key={`${failure.row} ${failure.column ?? ''} ${index}`}>
                    <Table.Td>{failure.row.toLocaleString('en')}</Table.Td>
                    <Table.Td>{failure.column ?? '—'}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{failure.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        </>
      )}
    </Stack>
  );
}
