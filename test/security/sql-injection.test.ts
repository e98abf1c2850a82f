import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageResult, Row } from '#common/contract/sql.ts';
import { exportAndDownload, readCsv, startExport } from '#server/test/export-steps.ts';
import {
  expectHealthy,
  expectNoLeak,
  openSecurityTarget,
  quoteName,
  securityEngines,
  type SecurityTarget,
} from './harness.ts';
import { expectNoSideEffect } from './side-effects.ts';

/*
 * SQL in every parameter of the data API, on SQLite, PostgreSQL and MariaDB: the path's database, schema and table,
 * the page number and size, the sort, filter keys and values, row bodies of insert, update and delete, the
 * foreign-key search, and an export's filter and sort. Each payload is refused with a plain sentence or treated as
 * data (searched for, stored and read back as the very text sent), never executed: the canary and every hostile
 * table stay as they were, no answer carries SQL or driver text, and no call takes the time a sleep would.
 * Calls are the administrator's, who may do everything: nothing but the way values travel stands in the way.
 */

const PAYLOADS = [
  `' OR '1'='1`,
  `'; DROP TABLE canary; --`,
  `"; DROP TABLE canary; --`,
  '`; DROP TABLE canary; --',
  `1; DELETE FROM canary`,
  `1) OR (1=1`,
  `name; UPDATE canary SET note = 'owned'`,
  `\\'; DELETE FROM canary; -- `,
  `%' OR 1=1 --`,
  `' UNION SELECT id, name, note FROM canary --`,
  `name UNION SELECT * FROM canary`,
  `' AND (SELECT 1 FROM (SELECT SLEEP(5)) x) AND '1'='1`,
  `'; SELECT pg_sleep(5); --`,
  `name, (SELECT 1 FROM canary)`,
  `ʼ OR 1=1 --`,
  `name\u0000; DROP TABLE canary`,
  `canary`,
  `../canary`,
];

/** No call may take as long as a payload's sleep would make it (5 s); generous for two busy cores. */
const SLEEP_MS = 4000;

/** The child table and its foreign-key column (hostile names too), referencing the table `it's`. */
const CHILD = 'child "fk"';
const FK_COLUMN = `parent'); DROP TABLE canary; --`;
const PARENT = "it's";

/**
 * expectNoLeak once the caller's own text is taken out: a message may quote a name it was sent ("x is not a column
 * of t."), which is the caller's input, not internal text.
 */
function expectNoLeakEchoing(answer: LightMyRequestResponse, payload: string): void {
  let body = answer.body;
  const forms = new Set([
    payload,
    payload.trim(),
    payload.replace(/^-/, ''),
    payload.replaceAll('\u0000', ''),
    // The child table's own names, which answers about it carry.
    CHILD,
    FK_COLUMN,
  ]);
  // Longest first: a payload may be part of a name (`canary` of the foreign-key column's name).
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    if (!form) continue;
    body = body.replaceAll(JSON.stringify(form).slice(1, -1), '').replaceAll(form, '');
    // A long value is quoted shortened: its beginning and an ellipsis.
    for (let length = form.length - 1; length >= 12; length--)
      body = body.replaceAll(`${JSON.stringify(form.slice(0, length)).slice(1, -1)}…`, '');
  }
  expectNoLeak(body);
}

describe.each(securityEngines)('SQL injection on %s', (kind) => {
  let target: SecurityTarget;
  const table = PARENT;

  /** A payload as a search term: no match, or (a NUL, which PostgreSQL text cannot hold) a plain refusal. */
  function expectNoMatch(
    answer: LightMyRequestResponse,
    payload: string,
    results: (data: never) => unknown[],
  ) {
    if (kind === 'postgres' && payload.includes('\u0000')) return expectRefused(answer);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(results(answer.json<{ data: never }>().data)).toEqual([]);
  }

  /** Calls as the administrator; checks the answer is not slow and leaks nothing but the payload itself. */
  async function call(
    method: 'GET' | 'POST',
    url: string,
    payload: string,
    body?: object,
  ): Promise<LightMyRequestResponse> {
    const started = performance.now();
    const answer = await target.t.app.inject({
      method,
      url,
      headers: target.admin.headers,
      ...(body ? { payload: body } : {}),
    });
    expect(performance.now() - started, `${url} took a sleep's time`).toBeLessThan(SLEEP_MS);
    expectNoLeakEchoing(answer, payload);
    expect(answer.statusCode, `${method} ${url}: ${answer.body}`).toBeLessThan(500);
    return answer;
  }

  /** A refusal: a 4xx with a plain sentence. */
  function expectRefused(answer: LightMyRequestResponse, statuses: number[] = [400]) {
    expect(statuses, answer.body).toContain(answer.statusCode);
    const { isSuccess, message } = answer.json<{ isSuccess: boolean; message: string }>();
    expect(isSuccess).toBe(false);
    expect(message).toEqual(expect.any(String));
  }

  beforeAll(async () => {
    target = await openSecurityTarget(kind);
    const q = (name: string) => quoteName(kind, name);
    await target.run(
      `CREATE TABLE ${q(CHILD)} (id integer primary key, ${q(FK_COLUMN)} integer REFERENCES ${q(PARENT)} (id))`,
    );
    await target.run(`INSERT INTO ${q(CHILD)} (id, ${q(FK_COLUMN)}) VALUES (1, 1)`);
    await target.engine.catalog({ refresh: true });
  });
  afterAll(async () => {
    if (!target) return;
    await target.expectCanaryIntact();
    await expectHealthy(target);
    await target.close();
  });

  it('refuses SQL in the database, schema and table of a path with a plain "not found"', async () => {
    await expectNoSideEffect(
      target,
      async () => {
        // (`canary` is a real table's name, and `../canary` is one segment: a name no table has.)
        for (const payload of PAYLOADS.filter((p) => p !== 'canary')) {
          const p = encodeURIComponent(payload);
          const s = encodeURIComponent(target.schema);
          const t = encodeURIComponent(table);
          for (const url of [
            `/api/sql/${p}`,
            `/api/sql/${p}/${s}/${t}/page/1`,
            `/api/sql/target/${p}/${t}/page/1`,
            `/api/sql/target/${s}/${p}/page/1`,
            `/api/sql/target/${s}/${p}`,
            `/api/sql/target/${s}/${p}/foreignkeys`,
          ])
            expectRefused(await call('GET', url, payload), [404]);
          for (const url of [`/api/sql/target/${s}/${p}/search`, `/api/sql/target/${s}/${p}/export`])
            expectRefused(await call('POST', url, payload, {}), [404]);
        }
      },
      { extraTables: [CHILD] },
    );
  });

  it('refuses SQL in the page number, page size and sort', async () => {
    await expectNoSideEffect(
      target,
      async () => {
        for (const payload of [...PAYLOADS, '1e999', '-1', '0x10; --', '99999999999999999999999']) {
          const p = encodeURIComponent(payload);
          expectRefused(await call('GET', target.apiPath(table, `/page/${p}`), payload));
          expectRefused(await call('GET', target.apiPath(table, `/page/1?pageSize=${p}`), payload));
          expectRefused(await call('GET', target.apiPath(table, `/page/1?orderBy=${p}`), payload));
          expectRefused(await call('GET', target.apiPath(table, `/page/1?orderBy=-${p}`), payload));
          expectRefused(await call('POST', target.apiPath(table, `/search?orderBy=${p}`), payload, {}));
        }
      },
      { extraTables: [CHILD] },
    );
  });

  it('refuses SQL as a filter key, and takes it as a filter value only as data', async () => {
    await expectNoSideEffect(
      target,
      async () => {
        for (const payload of PAYLOADS) {
          for (const rest of ['/search', '/page/1/search'])
            expectRefused(await call('POST', target.apiPath(table, rest), payload, { [payload]: 'x' }));
          // On the text column: rows whose name starts with the payload, which none does.
          const byName = await call('POST', target.apiPath(table, '/search'), payload, { name: payload });
          expectNoMatch(byName, payload, (data: PageResult) => data.results);
          // On the number column: not a number.
          const byId = await call('POST', target.apiPath(table, '/page/1/search'), payload, { id: payload });
          expectRefused(byId);
        }
        // Pattern characters are data too: only a name that really starts with them matches.
        const search = async (name: string, term: string) =>
          (await call('POST', target.apiPath(name, '/search'), term, { name: term })).json<{
            data: PageResult;
          }>().data.results.length;
        expect(await search(table, '%')).toBe(0);
        expect(await search(table, '_')).toBe(0);
        expect(await search(table, 'it_s')).toBe(0);
        expect(await search(table, "it's")).toBe(3);
        expect(await search('per%cent', 'per%')).toBe(3);
        expect(await search('per%cent', 'per_')).toBe(0);
      },
      { extraTables: [CHILD] },
    );
  });

  it('stores SQL in row values as the very text sent, and refuses it as a column or a key', async () => {
    // Rows to write: on SQLite `id integer primary key` is the rowid (filled in by the database); elsewhere the
    // key is given.
    const identity = kind === 'sqlite';
    let next = 100;
    for (const payload of PAYLOADS) {
      const id = next++;
      const inserted = await call('POST', target.apiPath(table, ''), payload, {
        ...(identity ? {} : { id }),
        name: payload,
        note: payload,
      });
      if (payload.includes('\u0000') && inserted.statusCode === 400) continue; // a NUL is refused where text holds none
      expect(inserted.statusCode, inserted.body).toBe(200);
      const row = inserted.json<{ data: Row }>().data;
      expect(row).toMatchObject({ name: payload, note: payload });
      // Read back through a page: the same text, found by itself.
      const found = await call('POST', target.apiPath(table, '/search'), payload, { id: row.id ?? id });
      expect(found.json<{ data: PageResult }>().data.results).toEqual([row]);
      if (identity) {
        const updated = await call('POST', target.apiPath(table, ''), payload, {
          id: row.id,
          note: `${payload}!`,
        });
        expect(updated.statusCode, updated.body).toBe(200);
        expect(updated.json<{ data: Row }>().data).toMatchObject({ name: payload, note: `${payload}!` });
      }
      const deleted = await call('POST', target.apiPath(table, '/delete'), payload, { id: row.id ?? id });
      expect(deleted.statusCode, deleted.body).toBe(200);
    }
    await expectNoSideEffect(
      target,
      async () => {
        for (const payload of PAYLOADS) {
          // As a column of a new row, an update or a delete.
          for (const body of [
            { [payload]: 'x', name: 'n', id: 900 },
            { id: 1, [payload]: 'x' },
          ])
            expectRefused(await call('POST', target.apiPath(table, ''), payload, body), [400]);
          // A delete reads the key alone (the client sends the whole row back): row 900 is not there.
          const missing = { id: 900, [payload]: 'x' };
          expectRefused(await call('POST', target.apiPath(table, '/delete'), payload, missing), [400, 404]);
          // As the key of an update or a delete: not a number, or (looked up as a value) no such row.
          const key = { id: payload, note: 'x' };
          expectRefused(await call('POST', target.apiPath(table, ''), payload, key), [400, 404]);
          expectRefused(
            await call('POST', target.apiPath(table, '/delete'), payload, { id: payload }),
            [400, 404],
          );
        }
      },
      { extraTables: [CHILD] },
    );
  });

  it('refuses SQL as a foreign-key column or page, and searches choices only as data', async () => {
    const choices = (query: string) => target.apiPath(CHILD, `/foreignkeys?${query}`);
    const column = encodeURIComponent(FK_COLUMN);
    const all = await call('GET', choices(''), FK_COLUMN);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json<{ data: { options: unknown[] }[] }>().data[0]?.options).toHaveLength(3);
    await expectNoSideEffect(
      target,
      async () => {
        for (const payload of PAYLOADS) {
          const p = encodeURIComponent(payload);
          expectRefused(await call('GET', choices(`column=${p}`), payload));
          expectRefused(await call('GET', choices(`column=${column}&page=${p}`), payload));
          const searched = await call('GET', choices(`column=${column}&term=${p}`), payload);
          // Every choice is still offered (spec 000 §9: matches first), none as a match of the payload.
          expectNoMatch(searched, payload, (data: { options: { isMatch: boolean }[] }) =>
            data.options.filter((option) => option.isMatch),
          );
        }
      },
      { extraTables: [CHILD] },
    );
  });

  it("refuses SQL in an export's sort and filter keys before starting, and exports a filter value as data", async () => {
    await expectNoSideEffect(
      target,
      async () => {
        for (const payload of PAYLOADS) {
          const sorted = await startExport(target.t, target.admin, target.apiPath(table), {
            orderBy: payload,
          });
          expectNoLeakEchoing(sorted, payload);
          expectRefused(sorted);
          const keyed = await startExport(target.t, target.admin, target.apiPath(table), {
            filter: { [payload]: 'x' },
          });
          expectNoLeakEchoing(keyed, payload);
          expectRefused(keyed);
          const formatted = await startExport(target.t, target.admin, target.apiPath(table), {
            format: payload,
          });
          expectNoLeakEchoing(formatted, payload);
          expectRefused(formatted);
        }
      },
      { extraTables: [CHILD] },
    );
    // A few values through every writer: CSV (the engine's own where it can), JSON Lines; none matches.
    for (const payload of [PAYLOADS[1] ?? '', PAYLOADS[9] ?? '', PAYLOADS[12] ?? '']) {
      for (const format of ['csv', 'jsonl']) {
        const { body, status } = await exportAndDownload(target.t, target.admin, target.apiPath(table), {
          filter: { name: payload },
          orderBy: '-name',
          format,
        });
        expect(status.rowsWritten).toBe(0);
        if (format === 'csv') expect(readCsv(body.toString('utf8'))).toEqual([['id', 'name', 'note']]);
        else expect(body.toString('utf8').trim()).toBe('');
      }
    }
    await target.expectCanaryIntact();
  }, 60_000);
});
