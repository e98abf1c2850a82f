import { Button, Group, Progress, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';

/**
 * A job's progress as exports, bulk changes and imports show it: the bar (moving without a figure until the job
 * has measured one), the line of text under it and, when the job can be stopped, its Cancel button. `percent` null
 * means not measured yet.
 */
export function JobProgress({
  label,
  text,
  percent,
  cancel,
}: {
  /** The progress bar's accessible name. */
  label: string;
  text: string;
  percent: number | null;
  cancel?: { label: string; onClick: () => void; disabled: boolean };
}) {
  const measured = percent !== null;
  return (
    <>
      <Progress.Root
        size="md"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={measured ? percent : undefined}
        aria-valuetext={text}
      >
        <Progress.Section value={measured ? percent : 100} animated={!measured} withAria={false} />
      </Progress.Root>
      <Group justify="space-between" gap="xs" mt={8} wrap="nowrap">
        <Text size="sm" c="dimmed">
          {text}
        </Text>
        {cancel && (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconX size={14} aria-hidden="true" />}
            onClick={cancel.onClick}
            disabled={cancel.disabled}
            style={{ flexShrink: 0 }}
          >
            {cancel.label}
          </Button>
        )}
      </Group>
    </>
  );
}
