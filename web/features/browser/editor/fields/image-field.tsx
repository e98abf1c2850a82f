import { useId, useRef, useState } from 'react';
import { Button, Group, Image, Input, Stack, Text } from '@mantine/core';
import { editorMessages as em } from '#web/features/browser/editor/editor-messages.ts';
import { emptyText, type FieldProps } from './field-props.ts';
import { imageSource, readFileBase64 } from './image-data.ts';

/**
 * An image column (spec 000 §5): a preview thumbnail, Choose image (a plain file input, read as base64 without the
 * data-URL prefix) and Clear image. A file over the column's byte limit is refused here with the server's words.
 */
export function ImageField({ field, value, error, onChange, onBlur }: FieldProps) {
  const { column } = field;
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const image = typeof value === 'string' && value !== '' ? value : null;

  const choose = async (file: File | undefined) => {
    if (!file) return;
    if (column.maxLength > 0 && file.size > column.maxLength) {
      setProblem(`${column.name} cannot be more than ${column.maxLength} bytes.`);
      return;
    }
    try {
      const base64 = await readFileBase64(file);
      setProblem(null);
      onChange(base64);
    } catch {
      setProblem(`${file.name} could not be read.`);
    }
    onBlur();
  };

  return (
    <Input.Wrapper
      label={column.name}
      labelProps={{ htmlFor: field.readOnly ? undefined : `${id}-file`, id: `${id}-label` }}
      withAsterisk={field.required}
      error={problem ?? error}
    >
      <Group gap="sm" wrap="nowrap" align="center" mt={4}>
        {image ? (
          <Image
            src={imageSource(image)}
            alt={em.imagePreview(column.name)}
            w={64}
            h={64}
            fit="contain"
            radius="sm"
            bd="1px solid var(--mantine-color-default-border)"
          />
        ) : (
          <Text size="sm" c="dimmed" w={64} ta="center">
            {value === null ? emptyText(field) : em.noImage}
          </Text>
        )}
        {!field.readOnly && (
          <Stack gap={4}>
            <input
              ref={input}
              id={`${id}-file`}
              type="file"
              accept="image/*"
              hidden
              data-column={column.name}
              onChange={(event) => {
                void choose(event.currentTarget.files?.[0]);
                event.currentTarget.value = '';
              }}
            />
            <Button
              size="xs"
              variant="light"
              aria-describedby={`${id}-label`}
              onClick={() => input.current?.click()}
            >
              {em.chooseImage}
            </Button>
            {image && (
              <Button
                size="xs"
                variant="default"
                aria-describedby={`${id}-label`}
                onClick={() => {
                  setProblem(null);
                  onChange(null);
                }}
              >
                {em.clearImage}
              </Button>
            )}
          </Stack>
        )}
      </Group>
    </Input.Wrapper>
  );
}
