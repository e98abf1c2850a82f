import type { ApiResult } from '#web/api/client.ts';

/** A successful answer: its data and the server's message (the success toast, when there is one). */
export type ApiSuccess<T> = Extract<ApiResult<T>, { isSuccess: true }>;

/** A failed call as TanStack Query sees it: its message is already the sentence to show (spec 000 §8); `status` and
 * `details` as the server answered them (see ApiResult), when it did. */
export class ApiFailure extends Error {
  override name = 'ApiFailure';
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly details: unknown = null,
  ) {
    super(message);
  }
}

/** The successful answer of a call, or an ApiFailure carrying its message; query and mutation functions use it so
 * a failure lands in TanStack Query's error state while the fetchers themselves never throw. */
export function unwrap<T>(result: ApiResult<T>): ApiSuccess<T> {
  if (!result.isSuccess) throw new ApiFailure(result.message, result.status ?? null, result.details ?? null);
  return result;
}

/** The data of a successful answer, for queries. */
export function unwrapData<T>(result: ApiResult<T>): T {
  return unwrap(result).data;
}
