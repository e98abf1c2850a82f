import { useState } from 'react';
import type { FocusEvent } from 'react';
import { useForm, type FormErrors } from '@mantine/form';
import { formMessages } from '#common/messages.ts';

/** What an input needs from the form: its value and change handler, the error to show, and the blur that marks it. */
export interface SpecFieldProps {
  value: string;
  onChange: (value: unknown) => void;
  onBlur: (event: FocusEvent<HTMLElement>) => void;
  error: string | undefined;
  'data-path': string;
}

/**
 * A form of the account screens on @mantine/form with the spec's rules for messages (001 §5). Every field is checked
 * against `validate` (a common/contract schema through web/forms validateWith) on each render, so a password edit
 * re-checks its confirmation too: the match error marks the other field. A field's message shows only once it is
 * touched (left at least once) or dirty (changed at least once, even if changed back): Mantine's own `touched` turns
 * on at focus, too early for that rule, so the form keeps its own set. A field with an error but no message says
 * 'This field has errors'. `checkAll` is the whole-form check of a submit: it marks every field, focuses the first
 * invalid one and answers whether the form is valid.
 */
export function useSpecForm<Values extends Record<string, unknown>>({
  initialValues,
  validate,
  fields,
}: {
  initialValues: Values;
  validate: (values: Values) => FormErrors;
  /** The paths of the visible inputs, in the order they appear. */
  fields: readonly string[];
}) {
  const form = useForm<Values>({ mode: 'controlled', initialValues });
  const [marked, setMarked] = useState<ReadonlySet<string>>(new Set());
  const errors = validate(form.getValues());

  const mark = (path: string) =>
    setMarked((current) => (current.has(path) ? current : new Set(current).add(path)));

  const shown = (path: string): string | undefined => {
    if (!(path in errors) || !marked.has(path)) return undefined;
    const message = errors[path];
    return typeof message === 'string' && message.length > 0 ? message : formMessages.fieldHasErrors;
  };

  const field = (path: string): SpecFieldProps => {
    const props = form.getInputProps(path);
    const change = props.onChange as (value: unknown) => void;
    return {
      value: typeof props.value === 'string' ? props.value : '',
      onChange: (value) => {
        mark(path);
        change(value);
      },
      onBlur: () => mark(path),
      error: shown(path),
      'data-path': path,
    };
  };

  const checkAll = (): boolean => {
    setMarked(new Set(fields));
    const invalid = fields.find((path) => path in errors);
    if (invalid) form.getInputNode(invalid)?.focus();
    return Object.keys(errors).length === 0;
  };

  return { form, errors, field, checkAll };
}
