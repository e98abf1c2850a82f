import {
  Alert,
  Badge,
  Checkbox,
  Group,
  NativeSelect,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ImportPreview, ImportRunBody } from '#common/contract/imports.ts';
import { modeChoices, SKIP, type MappingDraft } from './import-text.ts';

/** The import's form: the mapping as drafted (skip = ''), the mode, what a failing row does, identity values. */
export interface ImportFormValues {
  mapping: MappingDraft;
  mode: ImportRunBody['mode'];
  onError: ImportRunBody['onError'];
  keepIdentity: boolean;
}

/**
 * The mapping: one select a file column (a table column or "Skip"), the proposal preselected; the table's columns
 * as badges (required ones marked, red while left out); the problems that block, in the server's words; the mode
 * (upsert only with CanUpdate) and what a failing row does.
 */
export function ImportMappingSection({
  preview,
  form,
  problems,
  canUpdate,
}: {
  preview: ImportPreview;
  form: UseFormReturnType<ImportFormValues>;
  problems: string[];
  canUpdate: boolean;
}) {
  const values = form.getValues();
  const mapped = new Set(Object.values(values.mapping).filter((column) => column !== SKIP));
  const writable = preview.columns.filter((column) => column.writable);
  const options = [
    { value: SKIP, label: 'Skip (do not import)' },
    ...writable.map((column) => ({
      value: column.name,
      label: `${column.name} · ${column.type}${column.required ? ' · required' : ''}${column.isIdentity ? ' · numbered by the database' : ''}`,
    })),
  ];
  const identityMapped = preview.columns.some((column) => column.isIdentity && mapped.has(column.name));
  const sample = (index: number) => preview.rows.find((row) => row[index] != null)?.[index] ?? null;

  return (
    <Stack gap="md" component="section" aria-labelledby="import-mapping-title">
      <Title order={3} fz="h4" id="import-mapping-title">
        Columns
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="sm">
        {preview.fileColumns.map((column, index) => {
          const example = sample(index);
          return (
            <NativeSelect
              key={column}
              label={column}
              description={example === null ? 'No value in the first rows' : `e.g. ${example.slice(0, 60)}`}
              data={options}
              {...form.getInputProps(`mapping.${column}`)}
              // Mantine's path notation would split a column name with a dot: the record is set whole instead.
              value={values.mapping[column] ?? SKIP}
              onChange={(event) =>
                form.setFieldValue('mapping', { ...values.mapping, [column]: event.currentTarget.value })
              }
              aria-label={`Import file column ${column} into`}
            />
          );
        })}
      </SimpleGrid>

      <Stack gap={6}>
        <Text size="sm" fw={500}>
          Columns of the table
        </Text>
        <Group gap={6} wrap="wrap" aria-label="Columns of the table">
          {preview.columns.map((column) => {
            const isMapped = mapped.has(column.name);
            const missing = column.required && !isMapped;
            return (
              <Badge
                key={column.name}
                variant="light"
                color={missing ? 'red' : isMapped ? 'teal' : 'gray'}
                style={{ textTransform: 'none' }}
                title={`${column.type}${column.required ? ', required' : ''}${column.writable ? '' : ', filled in by the database'}`}
              >
                {column.name}
                {column.required ? ' *' : ''}
                {isMapped ? ' ✓' : ''}
              </Badge>
            );
          })}
        </Group>
        {preview.columns.some((column) => column.required) && (
          <Text size="xs" c="dimmed">
            * required: the file must give a value.
          </Text>
        )}
      </Stack>

      {identityMapped && (
        <Checkbox
          label="Keep the file's values in the column the database numbers"
          {...form.getInputProps('keepIdentity', { type: 'checkbox' })}
        />
      )}

      {problems.length > 0 && (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle size={18} aria-hidden="true" />}
          title="Fix the mapping first"
          role="alert"
        >
          <Stack gap={4}>
            {problems.map((problem) => (
              <Text key={problem} size="sm">
                {problem}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}

      <Group gap="xl" align="flex-start" wrap="wrap">
        <Radio.Group
          label="Mode"
          description="A row whose primary key is already in the table"
          {...form.getInputProps('mode')}
        >
          <Stack gap={6} mt={6}>
            {modeChoices
              .filter((choice) => choice.value !== 'upsert' || canUpdate)
              .map((choice) => (
                <Radio key={choice.value} value={choice.value} label={choice.label} />
              ))}
          </Stack>
        </Radio.Group>
        <Radio.Group
          label="On error"
          description="When a row fails in the run"
          {...form.getInputProps('onError')}
        >
          <Stack gap={6} mt={6}>
            <Radio value="rollback" label="All or nothing: write no row" />
            <Radio value="skip" label="Skip bad rows, write the good ones" />
          </Stack>
        </Radio.Group>
      </Group>
    </Stack>
  );
}
