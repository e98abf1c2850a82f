import { schemaResolver } from '@mantine/form';
import type { FormErrors } from '@mantine/form';
import type { ZodType } from 'zod';

/**
 * A @mantine/form `validate` from a common/contract zod schema: the form checks exactly what the server checks, with
 * the same messages (one source of every rule). Synchronous, so `form.validate()` answers at once.
 */
export function validateWith(schema: ZodType): (values: unknown) => FormErrors {
  return schemaResolver(schema, { sync: true });
}
