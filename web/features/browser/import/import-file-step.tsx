import { useState, type DragEvent } from 'react';
import { Alert, Button, FileButton, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconUpload } from '@tabler/icons-react';
import { importText } from './import-text.ts';

/** What the file input accepts: the formats of decision 0069 by their names. */
export const IMPORT_ACCEPT = '.csv,.tsv,.txt,.jsonl,.ndjson,.xlsx';

/** Bytes in words: "812 bytes", "4.2 MB". */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export interface ImportFileStepProps {
  /** The file being or last uploaded. */
  file: File | null;
  /** Percent of the upload sent, null when none is under way. */
  sent: number | null;
  /** Why the last upload failed, or null. */
  error: string | null;
  onFile: (file: File) => void;
}

/**
 * The file: dropped on the zone or chosen with its button (CSV, TSV, JSON Lines, XLSX); the upload starts at once and
 * shows its progress; a refused upload says why (the server's sentence: the size limit, an option, a right).
 */
export function ImportFileStep({ file, sent, error, onFile }: ImportFileStepProps) {
  const [over, setOver] = useState(false);
  const uploading = sent !== null;
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped && !uploading) onFile(dropped);
  };
  // Once a file is in, the zone shrinks to one line (still a drop target): the preview and mapping need the room.
  const compact = file !== null && !uploading && error === null;
  const chooser = (
    <FileButton onChange={(chosen) => chosen && onFile(chosen)} accept={IMPORT_ACCEPT}>
      {(props) => (
        <Button {...props} variant={file ? 'default' : 'filled'} disabled={uploading}>
          {file ? 'Choose another file' : 'Choose a file'}
        </Button>
      )}
    </FileButton>
  );
  return (
    <Stack gap="sm">
      <Paper
        component="section"
        aria-label="File to import"
        withBorder
        p={compact ? 'sm' : 'lg'}
        radius="md"
        onDragOver={(event: DragEvent) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        style={{
          borderStyle: 'dashed',
          borderWidth: 2,
          borderColor: over ? 'var(--mantine-primary-color-filled)' : undefined,
        }}
      >
        {compact ? (
          <Group gap="sm" justify="space-between" wrap="wrap">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {file.name} · {sizeText(file.size)}
            </Text>
            {chooser}
          </Group>
        ) : (
          <Stack align="center" gap="xs" ta="center">
            <IconUpload size={32} aria-hidden="true" color="var(--mantine-color-dimmed)" />
            <Text fw={500}>Drop a file here, or choose one</Text>
            <Text size="sm" c="dimmed">
              {importText.fileTypes}
            </Text>
            {chooser}
          </Stack>
        )}
      </Paper>
      {file && !compact && (
        <Group gap="xs" wrap="nowrap" justify="space-between">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {file.name} · {sizeText(file.size)}
          </Text>
          {uploading && (
            <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
              Uploading… {sent}%
            </Text>
          )}
        </Group>
      )}
      {uploading && <Progress value={sent} aria-label="Upload progress" animated={sent === 100} />}
      {error && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={18} aria-hidden="true" />}
          role="alert"
        >
          {error}
        </Alert>
      )}
    </Stack>
  );
}
