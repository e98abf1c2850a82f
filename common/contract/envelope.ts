import { z } from 'zod';

/** The spec's generic API result: every answer of the API is wrapped in it. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ isSuccess: z.boolean(), data: data.nullable(), message: z.string().nullable() });
}

/** An envelope for a failure, whatever the call's data would have been. */
export const failureEnvelope = z.object({
  isSuccess: z.literal(false),
  data: z.null(),
  message: z.string(),
});
export type FailureEnvelope = z.infer<typeof failureEnvelope>;
