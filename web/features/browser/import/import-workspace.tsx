import { useMemo, useState } from 'react';
import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconArrowBackUp, IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { importRunBody, type ImportPreview, type ImportRunBody } from '#common/contract/imports.ts';
import { tableId } from '#common/links.ts';
import { useImportCancel } from '#web/api/sql/import-cancel.ts';
import { useImportPreview, type ImportRef } from '#web/api/sql/import-preview.ts';
import { useImportReport } from '#web/api/sql/import-report.ts';
import { useImportRun } from '#web/api/sql/import-run.ts';
import { useImportStatus } from '#web/api/sql/import-status.ts';
import type { ImportUploadOptions } from '#web/api/sql/import-upload.ts';
import { validateWith } from '#web/forms/schema-validation.ts';
import { useUndoAsJob } from '#web/features/browser/bulk/undo-as-job.tsx';
import { ImportMappingSection, type ImportFormValues } from './import-mapping-section.tsx';
import { ImportPreviewSection } from './import-preview-section.tsx';
import { ImportRunSection } from './import-run-section.tsx';
import { draftOf, failureText, importText, mappingOf, mappingProblems, rows } from './import-text.ts';

/** The form checks its body with the contract's schema (the mapping as drafted, skips included). */
const formSchema = importRunBody.omit({ dryRun: true });

export interface ImportWorkspaceProps {
  importRef: ImportRef;
  canUpdate: boolean;
  isAdmin: boolean;
  uploading: boolean;
  onReread: (options: ImportUploadOptions) => void;
  /** The real run ended having written rows: the table's pages are read again. */
  onWritten: () => void;
  onClose: () => void;
}

/** An uploaded file's preview, then its mapping, dry runs and run: one import, keyed by its id. */
export function ImportWorkspace(props: ImportWorkspaceProps) {
  const preview = useImportPreview(props.importRef);
  if (preview.isPending)
    return (
      <Group gap="xs">
        <Loader size="sm" aria-hidden="true" />
        <Text size="sm">Reading the file…</Text>
      </Group>
    );
  if (preview.isError)
    return (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
        {failureText(preview.error, importText.previewFailed)}
      </Alert>
    );
  return <ImportSetup {...props} preview={preview.data} />;
}

interface RunAsked {
  /** The run's number in this page: its status is polled afresh. */
  number: number;
  dryRun: boolean;
  /** The body it ran with, to tell whether the form has changed since. */
  body: string;
}

function ImportSetup({
  importRef,
  preview,
  canUpdate,
  isAdmin,
  uploading,
  onReread,
  onWritten,
  onClose,
}: ImportWorkspaceProps & { preview: ImportPreview }) {
  const form = useForm<ImportFormValues>({
    mode: 'controlled',
    initialValues: { mapping: draftOf(preview), mode: 'insert', onError: 'rollback', keepIdentity: false },
    validate: validateWith(formSchema),
  });
  const values = form.getValues();
  const problems = useMemo(
    () => mappingProblems(preview, values.mapping, values.keepIdentity),
    [preview, values.mapping, values.keepIdentity],
  );
  const body = (dryRun: boolean): ImportRunBody => ({
    mapping: mappingOf(values.mapping),
    mode: values.mode,
    onError: values.onError,
    keepIdentity: values.keepIdentity,
    dryRun,
  });
  const bodyKey = JSON.stringify(body(true));

  const run = useImportRun();
  const cancel = useImportCancel();
  const report = useImportReport();
  const [asked, setAsked] = useState<RunAsked | null>(null);
  const [confirming, setConfirming] = useState(false);
  const { undo, pending: undoing } = useUndoAsJob();
  const [lastDry, setLastDry] = useState<{ body: string; failed: number } | null>(null);
  const status = useImportStatus(asked ? importRef : null, asked?.number ?? 0);
  const current = status.data;
  const running = run.isPending || (asked !== null && (current?.inProgress ?? true) && !status.isError);

  const start = (dryRun: boolean) => {
    if (form.validate().hasErrors || problems.length > 0) return;
    setConfirming(false);
    run.mutate(
      { ...importRef, body: body(dryRun) },
      {
        onSuccess: () =>
          setAsked((previous) => ({ number: (previous?.number ?? 0) + 1, dryRun, body: bodyKey })),
      },
    );
  };

  // The dry run this form last ended, to offer the run (and tell when the form changed since).
  const ended = asked && current && !current.inProgress ? current : null;
  if (ended && asked?.dryRun && ended.state === 'done' && lastDry?.body !== asked.body)
    setLastDry({ body: asked.body, failed: ended.failed });
  const written = ended && !asked?.dryRun && ended.inserted + ended.updated > 0;
  const [toldWritten, setToldWritten] = useState(false);
  if (written && !toldWritten) {
    setToldWritten(true);
    onWritten();
  }
  const runDone = ended !== null && asked?.dryRun === false;
  const dryCurrent = lastDry !== null && lastDry.body === bodyKey;
  const rollbackBlocked = dryCurrent && lastDry.failed > 0 && values.onError === 'rollback';
  const toInsert = ended && asked?.dryRun ? ended.inserted + ended.updated : 0;

  return (
    <Stack gap="xl">
      <ImportPreviewSection preview={preview} busy={uploading} onReread={onReread} />
      <ImportMappingSection preview={preview} form={form} problems={problems} canUpdate={canUpdate} />

      <Stack gap="sm">
        <Group gap="sm" wrap="wrap">
          <Button
            variant={dryCurrent ? 'default' : 'filled'}
            onClick={() => start(true)}
            disabled={problems.length > 0 || running || runDone}
            loading={run.isPending && run.variables.body.dryRun}
          >
            {lastDry ? 'Dry run again' : 'Dry run'}
          </Button>
          {dryCurrent && !runDone && (
            <Button onClick={() => setConfirming(true)} disabled={running || rollbackBlocked || confirming}>
              Run the import…
            </Button>
          )}
        </Group>
        {!dryCurrent && lastDry && !running && !runDone && (
          <Text size="sm" c="dimmed">
            The mapping or mode changed since the last dry run: dry-run again before importing.
          </Text>
        )}
        {!lastDry && (
          <Text size="sm" c="dimmed">
            A dry run reads the whole file and tells what the import would do, writing nothing.
          </Text>
        )}
        {rollbackBlocked && !running && (
          <Text size="sm" c="dimmed">
            {importText.rollbackBlocks}
          </Text>
        )}
        {confirming && (
          <Paper withBorder p="md" role="group" aria-label="Confirm the import">
            <Stack gap="sm">
              <Text size="sm">
                Import {rows(toInsert)} into {importRef.schema}.{importRef.table}
                {values.onError === 'skip' && (ended?.failed ?? 0) > 0
                  ? `, skipping the ${rows(ended?.failed ?? 0)} that fail`
                  : ''}
                ? This writes to the table.
              </Text>
              <Group gap="sm">
                <Button onClick={() => start(false)} loading={run.isPending}>
                  Import
                </Button>
                <Button variant="default" onClick={() => setConfirming(false)}>
                  Not now
                </Button>
              </Group>
            </Stack>
          </Paper>
        )}
        {run.isError && (
          <Alert
            color={
              run.error instanceof Error && 'status' in run.error && run.error.status === 409
                ? 'yellow'
                : 'red'
            }
            variant="light"
            icon={<IconInfoCircle size={18} aria-hidden="true" />}
            role="alert"
          >
            {failureText(run.error, importText.runFailed)}
          </Alert>
        )}
      </Stack>

      {status.isError && (
        <Alert color="red" variant="light" role="alert">
          {failureText(status.error, importText.statusFailed)}
        </Alert>
      )}
      {cancel.isError && (
        <Alert color="red" variant="light" role="alert">
          {failureText(cancel.error, importText.cancelFailed)}
        </Alert>
      )}
      {report.isError && (
        <Alert color="red" variant="light" role="alert">
          {failureText(report.error, importText.reportFailed)}
        </Alert>
      )}
      {current && (
        <ImportRunSection
          status={current}
          onCancel={() => cancel.mutate(importRef)}
          cancelling={cancel.isPending}
          onReport={() => report.mutate(importRef)}
          reporting={report.isPending}
        />
      )}
      {runDone && ended && (
        <Group gap="md">
          <Button onClick={onClose}>Back to the table</Button>
          {written && ended.auditId !== null && (
            <Button
              variant="default"
              leftSection={<IconArrowBackUp size={16} aria-hidden="true" />}
              loading={undoing}
              onClick={() => {
                const auditId = ended.auditId;
                if (auditId === null) return;
                const title = `Undoing the import into ${importRef.schema}.${importRef.table}`;
                void undo(importRef, auditId, title, importText.undoFailed).then((started) => {
                  if (started) onClose();
                });
              }}
            >
              Undo this import
            </Button>
          )}
          {isAdmin && ended.auditId !== null && (
            <Anchor
              component={Link}
              to={`/admin/audit?table=${encodeURIComponent(tableId(importRef.db, importRef.schema, importRef.table))}`}
            >
              See the audit entry #{ended.auditId}
            </Anchor>
          )}
        </Group>
      )}
    </Stack>
  );
}
