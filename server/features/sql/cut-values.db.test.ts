import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CUT_IMAGE_MAX_BASE64,
  cutLengthsOf,
  encodeBody,
  ROW_CUT_KEY,
  ROW_VERSION_KEY,
  type PageResult,
  type Row,
} from '#common/contract/sql.ts';
import { cutMessages } from '#common/messages.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine, EngineKind } from '#server/engines/engine.ts';
import { buildAdmin, type TestUser } from '#server/test/factories.ts';
import {
  createMysqlDatabase,
  createPostgresDatabase,
  type TestDatabase,
} from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * Cut values over HTTP (docs/decisions/0066-cut-values.md) on SQLite, PostgreSQL and MariaDB (ENGINES=… to choose):
 * a row with a 1 MB text, a JSON document of about 200 KB, a 100 KB blob and a 100 KB picture, beside a row of short
 * values. With ?cutText= the page, the page search and the query call answer them cut, with $cut holding the whole
 * lengths and the whole row's $version; the key and the sort column stay whole; without it nothing changes; a bad
 * cutText is a 400 that says what to fix; a row sent back with $cut is refused.
 */

type Kind = Exclude<EngineKind, 'mssql'>;
const chosen = (process.env.ENGINES ?? 'sqlite,postgres,mysql').split(',').map((e) => e.trim()) as Kind[];

const LONG_TEXT = 'Long text. '.repeat(100_000).slice(0, 1_048_576);
const JSON_TEXT = JSON.stringify({
  items: Array.from({ length: 5000 }, (_, i) => ({ i, name: `item ${i}` })),
});
const BLOB = Buffer.alloc(100 * 1024, 7);
const PHOTO = Buffer.alloc(100 * 1024, 9);
const SMALL_PHOTO = Buffer.alloc(10 * 1024, 9);
const CUT = 5000;

const types: Record<Kind, { id: string; text: string; json: string; blob: string }> = {
  sqlite: { id: 'integer primary key', text: 'text', json: 'text', blob: 'blob' },
  postgres: { id: 'serial primary key', text: 'text', json: 'jsonb', blob: 'bytea' },
  mysql: { id: 'integer auto_increment primary key', text: 'longtext', json: 'json', blob: 'longblob' },
};

describe.each(chosen)('cut values on %s', (kind) => {
  const folder = tempDir();
  let database: TestDatabase | undefined;
  let engine: DatabaseEngine;
  let t: TestApp;
  let schema: string;
  let admin: TestUser;
  /** PostgreSQL answers jsonb normalised (a space after each colon and comma): the length it answers is the whole. */
  let wholeJson: string;
  /** MariaDB has no image columns (a blob is binary whatever its name): its photo is cut as binary. */
  let photoBound: number;

  const at = (rest: string) => `/api/sql/shop/${encodeURIComponent(schema)}/doc${rest}`;
  const send = (method: 'GET' | 'POST', url: string, body?: unknown): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url,
      headers: { ...admin.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  async function rows(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Row[]> {
    const response = await send(method, url, body);
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
    return response.json<{ data: PageResult }>().data.results;
  }

  beforeAll(async () => {
    let url: string;
    if (kind === 'sqlite') {
      const file = path.join(folder.path, 'shop.db');
      new Database(file).close();
      url = `sqlite:${file}`;
    } else {
      database = kind === 'postgres' ? await createPostgresDatabase() : await createMysqlDatabase();
      url = database.url;
    }
    schema = kind === 'sqlite' ? 'main' : kind === 'postgres' ? 'public' : (database?.name ?? '');
    engine = await connectDatabase('shop', kind, url);
    const type = types[kind];
    await sql
      .raw(
        `create table doc (id ${type.id}, title varchar(50), body ${type.text}, meta ${type.json}, ` +
          `data ${type.blob}, photo ${type.blob})`,
      )
      .execute(engine.db);
    await sql`insert into doc (id, title, body, meta, data, photo) values (${1}, ${'big'}, ${LONG_TEXT}, ${JSON_TEXT}, ${BLOB}, ${PHOTO})`.execute(
      engine.db,
    );
    await sql`insert into doc (id, title, body, meta, data, photo) values (${2}, ${'small'}, ${'short'}, ${'{"a":1}'}, ${Buffer.from([1, 2])}, ${SMALL_PHOTO})`.execute(
      engine.db,
    );
    await engine.catalog({ refresh: true });
    t = await buildTestApp({ databases: [engine] });
    admin = await buildAdmin(t);
    const [whole] = await rows('GET', at('/page/1?orderBy=id'));
    wholeJson = String(whole?.meta);
    const photo = (await engine.table(schema, 'doc')).columns.find((column) => column.name === 'photo');
    photoBound = photo?.typeGroup === 'image' ? CUT_IMAGE_MAX_BASE64 : CUT - (CUT % 4);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    folder.remove();
  });

  const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

  it('answers long values cut with their whole lengths and the whole row’s version', async () => {
    const [whole, small] = await rows('GET', at('/page/1?orderBy=id'));
    const wholeAnswer = await send('GET', at(`/page/1?orderBy=id`));
    const cutAnswer = await send('GET', at(`/page/1?orderBy=id&cutText=${CUT}`));
    expect(cutAnswer.statusCode).toBe(200);
    // The page of two rows is a few tens of kilobytes instead of well over a megabyte.
    expect(wholeAnswer.body.length).toBeGreaterThan(1_200_000);
    expect(cutAnswer.body.length).toBeLessThan(120_000);
    const [cut, smallCut] = cutAnswer.json<{ data: PageResult }>().data.results;
    expect(cut?.body === LONG_TEXT.slice(0, CUT)).toBe(true);
    expect(cut?.meta === wholeJson.slice(0, CUT)).toBe(true);
    expect(String(cut?.data) === BLOB.toString('base64').slice(0, CUT - (CUT % 4))).toBe(true);
    expect(String(cut?.photo)).toHaveLength(photoBound);
    expect(cutLengthsOf(cut ?? {})).toEqual({
      body: LONG_TEXT.length,
      meta: wholeJson.length,
      data: BLOB.length,
      photo: PHOTO.length,
    });
    expect(cut?.[ROW_VERSION_KEY]).toBe(whole?.[ROW_VERSION_KEY]);
    expect(cut?.id).toBe(1);
    expect(cut?.title).toBe('big');
    // A row with nothing long is answered as without cutText: no marks, and a picture within 64 KiB whole.
    if (photoBound === CUT_IMAGE_MAX_BASE64) {
      expect(smallCut).toEqual(small);
      expect(ROW_CUT_KEY in (smallCut ?? {})).toBe(false);
    } else expect(cutLengthsOf(smallCut ?? {})).toEqual({ photo: SMALL_PHOTO.length });
    if (photoBound === CUT_IMAGE_MAX_BASE64)
      expect(String(smallCut?.photo)).toHaveLength(base64Length(SMALL_PHOTO.length));
  });

  it('keeps the sort column whole, and cuts on the page search and the query call too', async () => {
    const [sorted] = await rows('GET', at(`/page/1?orderBy=body&cutText=${CUT}`));
    expect(sorted?.body === LONG_TEXT).toBe(true);
    expect(cutLengthsOf(sorted ?? {})).toEqual({
      meta: wholeJson.length,
      data: BLOB.length,
      photo: PHOTO.length,
    });

    const [searched] = await rows('POST', at(`/page/1/search?orderBy=id&cutText=${CUT}`), { id: 1 });
    expect(searched?.body === LONG_TEXT.slice(0, CUT)).toBe(true);
    expect(cutLengthsOf(searched ?? {})?.body).toBe(LONG_TEXT.length);

    const where = { and: [{ column: 'id', op: 'eq', value: 1 }] };
    const [queried] = await rows('POST', at(`/query?cutText=${CUT}`), { where });
    expect(queried?.body === LONG_TEXT.slice(0, CUT)).toBe(true);
    expect(cutLengthsOf(queried ?? {})?.data).toBe(BLOB.length);
    // Without cutText the query call answers the row whole, as the value panel and the row editor read it.
    const [read] = await rows('POST', at('/query'), { where });
    expect(read?.body === LONG_TEXT).toBe(true);
    expect(ROW_CUT_KEY in (read ?? {})).toBe(false);
    expect(read?.[ROW_VERSION_KEY]).toBe(queried?.[ROW_VERSION_KEY]);
  });

  it('refuses a cutText that is not a whole number within its bounds, saying what to fix', async () => {
    for (const bad of ['12', '100001', 'lots', '500.5', '']) {
      const response = await send('GET', at(`/page/1?cutText=${bad}`));
      expect(response.statusCode, bad).toBe(400);
      expect(response.json<{ message: string }>().message, bad).toContain(
        'cutText must be a whole number from 100 to 100000',
      );
    }
    const query = await send('POST', at('/query?cutText=99'), { where: { and: [] } });
    expect(query.statusCode).toBe(400);
  });

  it('refuses a row sent back with $cut, as JSON or encoded, and leaves the row whole', async () => {
    const [cut] = await rows('GET', at(`/page/1?orderBy=id&cutText=${CUT}`));
    const sent = { ...cut, title: 'changed' };
    for (const payload of [JSON.stringify(sent), encodeBody(sent)]) {
      const response = await t.app.inject({
        method: 'POST',
        url: at(''),
        headers: {
          ...admin.headers,
          'content-type': payload.startsWith('{') ? 'application/json' : 'text/plain',
        },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(cutMessages.cutRowSent(ROW_CUT_KEY));
    }
    // Any other value under the key is refused too, on a save and on a delete.
    for (const url of [at(''), at('/delete')]) {
      const response = await send('POST', url, { id: 1, title: 'changed', [ROW_CUT_KEY]: 'x' });
      expect(response.statusCode, url).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(cutMessages.cutRowSent(ROW_CUT_KEY));
    }
    const [read] = await rows('POST', at('/query'), {
      where: { and: [{ column: 'id', op: 'eq', value: 1 }] },
    });
    expect(read?.title).toBe('big');
    expect(read?.body === LONG_TEXT).toBe(true);
    // The row read whole saves with its version, as before.
    const saved = await send('POST', at(''), {
      id: 1,
      title: 'saved',
      [ROW_VERSION_KEY]: read?.[ROW_VERSION_KEY],
    });
    expect(saved.statusCode, saved.body.slice(0, 300)).toBe(200);
  });
});
