import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '#server/engines/connect.ts';
import { XSRF_COOKIE } from '#server/plugins/csrf.ts';
import { loadChinook } from '#server/test/chinook.ts';
import { buildUser, type TestUser } from '#server/test/factories.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import {
  type Envelope,
  readStatus,
  schemaOf,
  startExport,
  waitForExport,
} from '#server/test/export-steps.ts';

/*
 * The web app downloads a finished export with a plain link (no bearer). That answer must not replace the session's
 * anti-forgery cookie with one bound to nobody, or the page's next change (a second export, a saved row) is refused
 * with 'The request is missing its XSRF token'.
 */
describe('the export download link and the anti-forgery cookie', () => {
  let database: TestDatabase;
  let t: TestApp;
  let reader: TestUser;
  let tableUrl: string;

  beforeAll(async () => {
    database = await loadChinook('sqlite');
    const engine = await connectDatabase('chinook', 'sqlite', database.url);
    t = await buildTestApp({ databases: [engine] });
    reader = await buildUser(t, { links: ['/db/chinook/*'] });
    tableUrl = `/api/sql/chinook/${schemaOf('sqlite', database)}/Genre`;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it("keeps the session's cookie, so the next export starts", async () => {
    const started = await startExport(t, reader, tableUrl);
    expect(started.statusCode, started.body).toBe(202);
    const { id } = started.json<Envelope<{ id: string }>>().data;
    await waitForExport(t, reader, tableUrl, id);
    const url = (await readStatus(t, reader, tableUrl, id)).data.url ?? '';

    // The browser sends its cookies with the link, never the bearer.
    const file = await t.app.inject({ method: 'GET', url, headers: { cookie: reader.headers.cookie ?? '' } });
    expect(file.statusCode).toBe(200);
    expect(file.cookies.find((c) => c.name === XSRF_COOKIE)).toBeUndefined();

    const again = await startExport(t, reader, tableUrl);
    expect(again.statusCode, again.body).toBe(202);
    const second = again.json<Envelope<{ id: string }>>().data.id;
    await waitForExport(t, reader, tableUrl, second);
  });
});
