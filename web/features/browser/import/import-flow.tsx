import { useRef, useState } from 'react';
import { Container, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { TableListItem } from '#common/contract/sql.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { useImportUpload, type ImportUploadOptions } from '#web/api/sql/import-upload.ts';
import { useSession } from '#web/session/session-context.ts';
import { ImportFileStep } from './import-file-step.tsx';
import { failureText, importText } from './import-text.ts';
import { ImportWorkspace } from './import-workspace.tsx';

export interface ImportFlowProps {
  db: string;
  table: TableListItem;
  opened: boolean;
  onClose: () => void;
}

/**
 * Import… (issue 39, decision 0069 "The import page"): a full-screen dialog over the table's page, loaded on first
 * use. The file (dropped or chosen, uploaded at once with its progress), then, for the import the upload answered, the
 * preview, the mapping, the dry runs and the run (import-workspace.tsx). Choosing another file or other reading
 * options uploads again and starts a new import. Closing keeps nothing: the server drops an untouched import after
 * a day.
 */
export function ImportFlow({ db, table, opened, onClose }: ImportFlowProps) {
  const queryClient = useQueryClient();
  const { verification } = useSession();
  const ref = { db, schema: table.schema, table: table.name };
  const upload = useImportUpload();
  const [file, setFile] = useState<File | null>(null);
  const [importId, setImportId] = useState<string | null>(null);
  const [sent, setSent] = useState<number | null>(null);
  const stop = useRef<AbortController | null>(null);

  const send = (chosen: File, options?: ImportUploadOptions) => {
    stop.current?.abort();
    const controller = new AbortController();
    stop.current = controller;
    setFile(chosen);
    setSent(0);
    upload.mutate(
      {
        ...ref,
        file: chosen,
        options,
        signal: controller.signal,
        onProgress: (done, total) => setSent(total > 0 ? Math.min(100, Math.round((done * 100) / total)) : 0),
      },
      {
        onSuccess: ({ data }) => setImportId(data.id),
        onSettled: () => {
          if (stop.current === controller) setSent(null);
        },
      },
    );
  };
  const close = () => {
    stop.current?.abort();
    onClose();
  };
  const uploadError =
    upload.isError && !(upload.error instanceof DOMException)
      ? failureText(upload.error, importText.uploadFailed)
      : null;

  return (
    <Modal
      opened={opened}
      onClose={close}
      fullScreen
      title={`Import into ${table.schema}.${table.name}`}
      closeButtonProps={{ 'aria-label': 'Close the import' }}
      styles={{
        title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)', overflowWrap: 'anywhere' },
      }}
    >
      <Container size="lg" px={0} pb="xl">
        <Stack gap="xl">
          <Text size="sm" c="dimmed">
            Rows from a file are added to {table.schema}.{table.name}: check them with a dry run first, which
            writes nothing.
          </Text>
          <ImportFileStep
            file={file}
            sent={sent}
            error={uploadError}
            onFile={(chosen) => {
              setImportId(null);
              send(chosen);
            }}
          />
          {importId && !upload.isError && (
            <ImportWorkspace
              key={importId}
              importRef={{ ...ref, id: importId }}
              canUpdate={table.rights.canUpdate}
              isAdmin={verification?.user.isAdmin === true}
              uploading={sent !== null}
              onReread={(options) => file && send(file, options)}
              onWritten={() => void queryClient.invalidateQueries({ queryKey: queryKeys.sql.table(ref) })}
              onClose={close}
            />
          )}
        </Stack>
      </Container>
    </Modal>
  );
}
