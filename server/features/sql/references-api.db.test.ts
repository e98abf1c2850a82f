import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reference } from '#common/contract/relations.ts';
import { tablePath } from '#common/links.ts';
import { ACCESS_DENIED } from '#server/access/policy.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine, EngineKind } from '#server/engines/engine.ts';
import { buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import {
  createMysqlDatabase,
  createPostgresDatabase,
  type TestDatabase,
} from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * "Referenced by" over HTTP (issue 37, decision 0065): POST …/references on SQLite, PostgreSQL and MariaDB
 * (ENGINES=… to choose), on tables made here: a customer referenced by invoices (ON DELETE CASCADE, indexed, 1,005
 * invoices for one customer to reach the cap), an employee referenced by itself (indexed) and by invoices' support
 * column (ON DELETE SET NULL, not indexed: "not counted" on SQLite and PostgreSQL; InnoDB indexes every foreign-key
 * column itself, so MariaDB counts it), a composite key with an index on its columns in the other order, and a table
 * the limited users may not read.
 */

type Kind = Exclude<EngineKind, 'mssql'>;
const chosen = (process.env.ENGINES ?? 'sqlite,postgres,mysql').split(',').map((e) => e.trim()) as Kind[];

const manyInvoices = 1005;

function schemaStatements(): string[] {
  const invoices = Array.from({ length: manyInvoices }, (_, i) => `(${i + 1}, 1, null)`);
  return [
    'create table customer (id integer primary key, name varchar(50))',
    'create table employee (id integer primary key, reports_to integer, ' +
      'constraint fk_employee_boss foreign key (reports_to) references employee (id))',
    'create index ix_employee_boss on employee (reports_to)',
    'create table invoice (id integer primary key, customer_id integer not null, support_id integer, ' +
      'constraint fk_invoice_customer foreign key (customer_id) references customer (id) on delete cascade, ' +
      'constraint fk_invoice_support foreign key (support_id) references employee (id) on delete set null)',
    'create index ix_invoice_customer on invoice (customer_id)',
    'create table pair (a integer not null, b integer not null, primary key (a, b))',
    'create table pair_use (id integer primary key, pa integer, pb integer, ' +
      'constraint fk_pair_use foreign key (pa, pb) references pair (a, b))',
    'create index ix_pair_use on pair_use (pb, pa)',
    'create table secret (id integer primary key, customer_id integer, ' +
      'constraint fk_secret_customer foreign key (customer_id) references customer (id))',
    'create index ix_secret_customer on secret (customer_id)',
    "insert into customer (id, name) values (1, 'Many'), (2, 'Few'), (3, 'None')",
    'insert into employee (id, reports_to) values (1, null), (2, 1), (3, 1)',
    `insert into invoice (id, customer_id, support_id) values ${invoices.join(', ')}`,
    `insert into invoice (id, customer_id, support_id) values (2001, 2, 2), (2002, 2, 2), (2003, 2, 2)`,
    'insert into pair (a, b) values (1, 1), (1, 2)',
    'insert into pair_use (id, pa, pb) values (1, 1, 2), (2, 1, 2), (3, 1, 1)',
    'insert into secret (id, customer_id) values (1, 2)',
  ];
}

describe.each(chosen)('references on %s', (kind) => {
  const folder = tempDir();
  let database: TestDatabase | undefined;
  let engine: DatabaseEngine;
  let t: TestApp;
  let schema: string;
  let admin: TestUser;
  let customerOnly: TestUser;
  let customerAndInvoice: TestUser;
  let invoiceOnly: TestUser;

  const at = (table: string) => `/api/sql/shop/${encodeURIComponent(schema)}/${table}/references`;
  const post = (user: TestUser, table: string, key: unknown): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: 'POST',
      url: at(table),
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: JSON.stringify(key),
    });
  async function refs(user: TestUser, table: string, key: unknown): Promise<Reference[]> {
    const response = await post(user, table, key);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: Reference[] }>().data;
  }
  /** The answer without the constraint names (SQLite's are made up from the columns), sorted. */
  const plain = (answer: Reference[]) =>
    answer
      .map(({ constraint: _, ...rest }) => rest)
      .sort((x, y) => `${x.table}.${x.columns.join()}`.localeCompare(`${y.table}.${y.columns.join()}`));

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
    for (const statement of schemaStatements()) await sql.raw(statement).execute(engine.db);
    await engine.catalog({ refresh: true });
    t = await buildTestApp({ databases: [engine] });
    admin = await buildAdmin(t);
    customerOnly = await buildUser(t, { links: [tablePath('shop', schema, 'customer')] });
    customerAndInvoice = await buildUser(t, {
      links: [tablePath('shop', schema, 'customer'), tablePath('shop', schema, 'invoice')],
    });
    invoiceOnly = await buildUser(t, { links: [tablePath('shop', schema, 'invoice')] });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    folder.remove();
  });

  it('reads the ON DELETE rule of every foreign key from the catalog', async () => {
    const catalog = await engine.catalog();
    const rules = Object.fromEntries(
      catalog.flatMap((table) =>
        table.foreignKeys.map((fk) => [`${table.name}.${fk.columns.join('+')}`, fk.onDelete]),
      ),
    );
    // MariaDB reports a key declared without a rule as RESTRICT; the others as NO ACTION.
    const unsaid = kind === 'mysql' ? 'restrict' : 'no action';
    expect(rules).toEqual({
      'employee.reports_to': unsaid,
      'invoice.customer_id': 'cascade',
      'invoice.support_id': 'set null',
      'pair_use.pa+pb': unsaid,
      'secret.customer_id': unsaid,
    });
  });

  it('counts indexed references exactly, caps at 1,000, and says "not counted" for an unindexed column', async () => {
    expect(plain(await refs(admin, 'customer', { id: 2 }))).toEqual([
      {
        schema,
        table: 'invoice',
        columns: ['customer_id'],
        referencedColumns: ['id'],
        onDelete: 'cascade',
        count: 3,
        capped: false,
      },
      {
        schema,
        table: 'secret',
        columns: ['customer_id'],
        referencedColumns: ['id'],
        onDelete: kind === 'mysql' ? 'restrict' : 'no action',
        count: 1,
        capped: false,
      },
    ]);
    const many = await refs(admin, 'customer', { id: 1 });
    expect(many.find((r) => r.table === 'invoice')).toMatchObject({ count: 1000, capped: true });
    // A key that names no row still answers: nothing points at it.
    expect((await refs(admin, 'customer', { id: 999 })).map((r) => [r.table, r.count, r.capped])).toEqual(
      expect.arrayContaining([
        ['invoice', 0, false],
        ['secret', 0, false],
      ]),
    );
    // The self-reference (indexed) and the unindexed support column (InnoDB indexes it itself).
    const employee = plain(await refs(admin, 'employee', { id: 1 }));
    expect(employee.map((r) => [r.table, r.columns, r.count])).toEqual([
      ['employee', ['reports_to'], 2],
      ['invoice', ['support_id'], kind === 'mysql' ? 0 : null],
    ]);
    const support = plain(await refs(admin, 'employee', { id: 2 })).find((r) => r.table === 'invoice');
    expect(support).toMatchObject({
      onDelete: 'set null',
      count: kind === 'mysql' ? 3 : null,
      capped: false,
    });
  });

  it('matches every column of a composite key', async () => {
    expect(plain(await refs(admin, 'pair', { a: 1, b: 2 }))).toEqual([
      {
        schema,
        table: 'pair_use',
        columns: ['pa', 'pb'],
        referencedColumns: ['a', 'b'],
        onDelete: kind === 'mysql' ? 'restrict' : 'no action',
        count: 2,
        capped: false,
      },
    ]);
    expect((await refs(admin, 'pair', { a: 1, b: 1 }))[0]?.count).toBe(1);
  });

  it('refuses a key that misses a column or has the wrong type, with a sentence', async () => {
    const missing = await post(admin, 'pair', { a: 1 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toBe(
      'To list what references a row of pair, give its key: a, b.',
    );
    const wrong = await post(admin, 'customer', { id: 'not a number' });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json<{ message: string }>().message).toMatch(/id/);
  });

  it('never names nor counts a table the caller may not read', async () => {
    expect(await refs(customerOnly, 'customer', { id: 2 })).toEqual([]);
    expect((await refs(customerAndInvoice, 'customer', { id: 2 })).map((r) => [r.table, r.count])).toEqual([
      ['invoice', 3],
    ]);
    // The table itself is opened as the page call opens it.
    const refused = await post(invoiceOnly, 'customer', { id: 2 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe(ACCESS_DENIED);
  });

  it('is described in OpenAPI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { summary: string; responses: Record<string, unknown> }>>;
    }>();
    const call = doc.paths['/api/sql/{db}/{schema}/{table}/references']?.post;
    expect(call?.summary).toMatch(/Referenced by/);
    expect(JSON.stringify(call?.responses)).toContain('capped');
  });
});
