import { Button, Menu, Paper, Portal, Text } from '@mantine/core';
import {
  IconChevronDown,
  IconDownload,
  IconFileSpreadsheet,
  IconFileTypeCsv,
  IconJson,
  type TablerIcon,
} from '@tabler/icons-react';
import { JobProgress } from '#web/ui/job-progress.tsx';
import type { ExportFormat } from '#common/contract/exports.ts';
import { exportFormatLabels, progressText, STARTING } from './export-progress-text.ts';
import type { ExportButtonProps } from './export-button.tsx';
import classes from './export.module.css';
import { type ExportJobState, useExportJob } from './use-export-job.ts';

/** The menu's choices: the server's formats, and CSV with a byte-order mark so Excel reads it as UTF-8. */
const choices: { label: string; format: ExportFormat; bom: boolean; icon: TablerIcon }[] = [
  { label: exportFormatLabels.csv, format: 'csv', bom: false, icon: IconFileTypeCsv },
  { label: 'CSV for Excel', format: 'csv', bom: true, icon: IconFileTypeCsv },
  { label: exportFormatLabels.jsonl, format: 'jsonl', bom: false, icon: IconJson },
  { label: exportFormatLabels.xlsx, format: 'xlsx', bom: false, icon: IconFileSpreadsheet },
];

export interface ExportMenuProps extends ExportButtonProps {
  /** Open at once: the stand-in button was clicked while this loaded (export-button.tsx). */
  defaultOpened?: boolean;
}

/**
 * Export (spec 000 §4): a job for the current search, filter and sort, its progress, cancel, and the download. Loaded on the
 * first sign of use (export-button.tsx stands in until then).
 */
export function ExportMenu({
  db,
  table,
  filter,
  where = null,
  sort,
  defaultOpened = false,
}: ExportMenuProps) {
  const { state, busy, start, cancel } = useExportJob();
  const exportAs = (format: ExportFormat, bom: boolean) =>
    start({ db, schema: table.schema, table: table.name, filter, where, sort, format, bom });
  return (
    <>
      {/* Without Mantine's focus placeholder (a focusable child of role="menu" that is no menu item, axe's
          aria-required-children): the first item takes the focus, as the ARIA menu pattern says. */}
      <Menu
        position="bottom-end"
        withinPortal
        withInitialFocusPlaceholder={false}
        defaultOpened={defaultOpened}
      >
        <Menu.Target>
          <Button
            variant="default"
            disabled={busy}
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            rightSection={<IconChevronDown size={14} aria-hidden="true" />}
          >
            Export
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {choices.map(({ label, format, bom, icon: Icon }) => (
            <Menu.Item
              key={label}
              leftSection={<Icon size={16} aria-hidden="true" />}
              onClick={() => exportAs(format, bom)}
            >
              {label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      {busy && <ExportProgress state={state} onCancel={cancel} />}
    </>
  );
}

/**
 * The running export: a small panel fixed to the bottom of the window (the full width on phones), so it stays in
 * view while the person scrolls, pages or searches, whatever the card's layout around the button.
 */
function ExportProgress({ state, onCancel }: { state: ExportJobState; onCancel: () => void }) {
  const status = state.status;
  const text = progressText(status);
  const measured = status !== null && text !== STARTING;
  const percent = status?.percentageCompleted ?? 0;
  const job = state.job;
  return (
    <Portal>
      <Paper component="section" aria-label="Export" className={classes.panel} withBorder shadow="md" p="sm">
        <Text size="sm" fw={600} lineClamp={2} mb={6} style={{ overflowWrap: 'anywhere' }}>
          Exporting {job ? `${job.schema}.${job.table}` : ''}
          {state.format ? ` as ${exportFormatLabels[state.format]}` : ''}
        </Text>
        <JobProgress
          label="Export progress"
          text={text}
          percent={measured ? percent : null}
          cancel={{
            label: 'Cancel export',
            onClick: onCancel,
            disabled: state.phase !== 'running' || state.cancelling,
          }}
        />
      </Paper>
    </Portal>
  );
}
