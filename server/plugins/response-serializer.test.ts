import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelope } from '#common/contract/envelope.ts';
import { databaseSummary, pageResult, row, tableListItem } from '#common/contract/sql.ts';
import { isHotRoute, projectionOf, responseSerializerCompiler } from './response-serializer.ts';

/* The compiled answers of the data routes are the zod serializer's, byte for byte, without validating again. */

type Serialize = (data: unknown) => string;
const compiled = (schema: z.ZodType, url = '/api/sql/:db/:schema/:table/page/:page') =>
  responseSerializerCompiler({ schema, method: 'GET', url, httpStatus: '200' }) as Serialize;
const byZod = (schema: z.ZodType) =>
  serializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' } as never) as Serialize;

const rows = Array.from({ length: 20 }, (_, i) => ({
  id: i + 1,
  name: `name "${i}" \u2028 ü`,
  amount: '0.01',
  created_at: '2020-01-01T00:00:01+00:00',
  active: i % 2 === 0,
  note: i % 10 ? `note ${i}` : null,
}));

describe('the compiled response serializer', () => {
  it('writes a page exactly as the zod serializer does, dropping what the schema does not declare', () => {
    const schema = envelope(pageResult);
    for (const data of [
      { results: rows, count: 200_000, countIsExact: false },
      { results: [], count: 0, countIsExact: true, internal: 'never sent' },
      null,
    ]) {
      const answer = { isSuccess: true, data, message: null, extra: 1 };
      expect(compiled(schema)(answer)).toBe(byZod(schema)(answer));
    }
    expect(
      compiled(schema)({
        isSuccess: true,
        data: { results: rows, count: 1, countIsExact: true, secret: 'x' },
        message: null,
      }),
    ).not.toContain('secret');
  });

  it('writes the table list and the database list as the zod serializer does', () => {
    const list = envelope(z.array(databaseSummary));
    const answer = {
      isSuccess: true,
      data: [{ name: 'demo', engine: 'sqlite', password: 'x' }],
      message: 'm',
    };
    expect(compiled(list, '/api/sql')(answer)).toBe(byZod(list)(answer));
    expect(projectionOf(envelope(z.array(tableListItem)))).not.toBeUndefined();
    expect(projectionOf(envelope(z.array(row)))).not.toBeUndefined();
  });

  it('keeps the zod serializer for schemas it cannot compile and for every other route', () => {
    expect(projectionOf(z.object({ at: z.date() }))).toBeUndefined();
    expect(projectionOf(z.string().transform((s) => s.length))).toBeUndefined();
    expect(projectionOf(z.looseObject({ a: z.string() }))).toBeUndefined();
    expect(projectionOf(z.union([z.object({ a: z.string() }), z.null()]))).toBeUndefined();
    expect(isHotRoute('/api/account')).toBe(false);
    expect(isHotRoute('/api/sqlite')).toBe(false);
    // The zod serializer refuses an answer of the wrong shape; on other routes that still holds.
    const strict = responseSerializerCompiler({
      schema: z.object({ n: z.number() }),
      method: 'GET',
      url: '/api/account',
      httpStatus: '200',
    }) as Serialize;
    expect(() => strict({ n: 'one' })).toThrow();
  });
});
