import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_APPLICATION_ID,
  DEMO_TABLES,
  ensureDemoDatabase,
  type DemoDatabaseResult,
} from './demo-database.ts';

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
  hidden: number;
}
interface IndexInfo {
  name: string;
  unique: number;
  origin: string;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const directories: string[] = [];

function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'dbui-demo-'));
  directories.push(directory);
  return directory;
}

function columnsOf(db: Database.Database, table: string): ColumnInfo[] {
  return db.prepare<[string], ColumnInfo>('SELECT * FROM pragma_table_xinfo(?)').all(table);
}

function indexesOf(db: Database.Database, table: string): IndexInfo[] {
  return db.prepare<[string], IndexInfo>('SELECT * FROM pragma_index_list(?)').all(table);
}

function indexColumns(db: Database.Database, index: string): string[] {
  return db
    .prepare<[string], { name: string }>('SELECT name FROM pragma_index_info(?) ORDER BY seqno')
    .all(index)
    .map((column) => column.name);
}

/** A SHA-256 of every row of `table` in key order, exact for 64-bit integers, floats and blobs. */
function tableChecksum(db: Database.Database, table: string): string {
  const hash = createHash('sha256');
  const statement = db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).raw(true).safeIntegers(true);
  for (const row of statement.iterate() as IterableIterator<unknown[]>) {
    hash.update(`${row.map(describeValue).join('\u0000')}\n`);
  }
  return hash.digest('hex');
}

function describeValue(value: unknown): string {
  if (Buffer.isBuffer(value)) return `blob:${value.toString('hex')}`;
  return `${typeof value}:${String(value)}`;
}

describe('ensureDemoDatabase', () => {
  let file: string;
  let first: DemoDatabaseResult;
  let db: Database.Database;

  beforeAll(() => {
    file = join(temporaryDirectory(), 'nested', 'demo.sqlite');
    const started = performance.now();
    first = ensureDemoDatabase(file);
    console.info(`demo database created in ${Math.round(performance.now() - started)} ms`);
    db = new Database(file, { readonly: true });
  });

  afterAll(() => {
    db.close();
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });

  it('creates the file once, leaves no temporary files, and reports created false afterwards', () => {
    expect(first.created).toBe(true);
    expect(readdirSync(join(file, '..'))).toEqual(['demo.sqlite']);
    expect(db.pragma('application_id', { simple: true })).toBe(DEMO_APPLICATION_ID);
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThan(0);

    const second = ensureDemoDatabase(file);
    expect(second).toEqual({ created: false, rows: {} });
  });

  it('reports the row count of every table, with over 100,000 order lines', () => {
    expect(Object.keys(first.rows).sort()).toEqual([...DEMO_TABLES].sort());
    for (const table of DEMO_TABLES) {
      const count = db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get();
      expect(count, table).toBe(first.rows[table]);
    }
    expect(first.rows.order_lines).toBeGreaterThanOrEqual(100_000);
    expect(first.rows.orders).toBeGreaterThanOrEqual(20_000);
    expect(first.rows.customers).toBeGreaterThanOrEqual(1_000);
    expect(first.rows.products).toBeGreaterThanOrEqual(500);
    expect(first.rows.product_images).toBeGreaterThanOrEqual(200);
  });

  it('declares every column type of the spec groups', () => {
    const declared = new Set(
      DEMO_TABLES.flatMap((table) => columnsOf(db, table).map((column) => column.type)),
    );
    const expected = [
      // Text, with lengths on both sides of the 50 (grid) and 500 (textarea) thresholds, and unlimited.
      'CHAR(2)',
      'NCHAR(3)',
      'NVARCHAR(20)',
      'VARCHAR(50)',
      'NVARCHAR(200)',
      'VARCHAR(1000)',
      'TEXT',
      'NTEXT',
      // Binary
      'BINARY(3)',
      'BINARY(32)',
      'VARBINARY(64)',
      // Number
      'TINYINT',
      'SMALLINT',
      'INT',
      'BIGINT',
      'REAL',
      'FLOAT',
      'MONEY',
      'SMALLMONEY',
      'DECIMAL(10,2)',
      'DECIMAL(3,1)',
      'NUMERIC(5,4)',
      // Date and Time
      'DATE',
      'DATETIME',
      'DATETIME2',
      'DATETIMEOFFSET',
      'SMALLDATETIME',
      'TIME',
      'TIMESTAMP',
      // Handled separately, plus guid and identity.
      'BIT',
      'IMAGE',
      'UNIQUEIDENTIFIER',
      'INTEGER',
    ];
    for (const type of expected) expect(declared, type).toContain(type);
  });

  it('has identity, guid, generated, nullable and not-null columns, with NULLs present', () => {
    const customers = columnsOf(db, 'customers');
    expect(customers.find((column) => column.name === 'customer_id')).toMatchObject({
      type: 'INTEGER',
      pk: 1,
    });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'").pluck().get()).toBe(
      'sqlite_sequence',
    );
    const guids = db.prepare('SELECT customer_guid FROM customers LIMIT 50').pluck().all();
    for (const guid of guids)
      expect(guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(columnsOf(db, 'product_reviews').find((column) => column.pk === 1)?.type).toBe('UNIQUEIDENTIFIER');

    // table_xinfo's hidden: 2 is a VIRTUAL generated column, 3 a STORED one.
    expect(customers.find((column) => column.name === 'full_name')?.hidden).toBe(2);
    expect(columnsOf(db, 'order_lines').find((column) => column.name === 'line_total')?.hidden).toBe(3);

    let nullableWithNulls = 0;
    let notNull = 0;
    for (const table of DEMO_TABLES) {
      for (const column of columnsOf(db, table)) {
        if (column.notnull === 1) notNull++;
        else if (column.pk === 0 && column.hidden === 0) {
          const nulls = db
            .prepare(`SELECT COUNT(*) FROM ${table} WHERE "${column.name}" IS NULL`)
            .pluck()
            .get();
          if (Number(nulls) > 0) nullableWithNulls++;
        }
      }
    }
    expect(notNull).toBeGreaterThan(50);
    expect(nullableWithNulls).toBeGreaterThan(20);
  });

  it('computes the generated columns', () => {
    const lines = db
      .prepare<[], { quantity: number; unit_price: number; discount_rate: number; line_total: number }>(
        'SELECT quantity, unit_price, discount_rate, line_total FROM order_lines WHERE order_line_id % 97 = 0',
      )
      .all();
    expect(lines.length).toBeGreaterThan(1_000);
    for (const line of lines) {
      // ROUND(x, 2) in SQLite: within half a cent of the exact product (binary floats sit either side of .005).
      const exact = line.quantity * line.unit_price * (1 - line.discount_rate);
      expect(Math.abs(line.line_total - exact)).toBeLessThanOrEqual(0.0051);
    }
    expect(lines.some((line) => line.discount_rate > 0)).toBe(true);

    const names = db.prepare<[], { first_name: string; last_name: string; full_name: string }>(
      'SELECT first_name, last_name, full_name FROM customers LIMIT 100',
    );
    for (const customer of names.all())
      expect(customer.full_name).toBe(`${customer.first_name} ${customer.last_name}`);

    const mismatchedTotals = db
      .prepare(
        `SELECT COUNT(*) FROM orders o
         WHERE o.status_id <> 5 AND ABS(o.total_due - o.shipping_cost
           - (SELECT SUM(line_total) FROM order_lines l WHERE l.order_id = o.order_id)) > 0.005`,
      )
      .pluck()
      .get();
    expect(mismatchedTotals).toBe(0);
  });

  it('has valid foreign keys on several tables', () => {
    expect(db.pragma('foreign_key_check')).toEqual([]);
    const tablesWithForeignKeys = DEMO_TABLES.filter(
      (table) => (db.pragma(`foreign_key_list(${table})`) as unknown[]).length > 0,
    );
    expect(tablesWithForeignKeys.length).toBeGreaterThanOrEqual(7);
    expect(tablesWithForeignKeys).toEqual(expect.arrayContaining(['order_lines', 'orders', 'product_tags']));
  });

  it('has unique, composite and search indexes, and a composite primary key without identity', () => {
    const lineIndexes = indexesOf(db, 'order_lines');
    const orderLine = lineIndexes.find((index) => index.name === 'ux_order_lines_order_line');
    expect(orderLine?.unique).toBe(1);
    expect(indexColumns(db, 'ux_order_lines_order_line')).toEqual(['order_id', 'line_number']);

    const customerIndexes = indexesOf(db, 'customers');
    expect(customerIndexes.find((index) => index.name === 'ux_customers_email')?.unique).toBe(1);
    expect(indexColumns(db, 'ix_customers_name')).toEqual(['last_name', 'first_name']);
    expect(customerIndexes.map((index) => index.name)).toEqual(
      expect.arrayContaining(['ix_customers_city', 'ix_customers_created_at', 'ux_customers_guid']),
    );
    expect(indexColumns(db, 'ix_orders_customer_date')).toEqual(['customer_id', 'order_date']);
    expect(indexColumns(db, 'ix_products_name')).toEqual(['name']);

    const linkKey = indexesOf(db, 'product_tags').find((index) => index.origin === 'pk');
    expect(linkKey).toBeDefined();
    expect(indexColumns(db, linkKey?.name ?? '')).toEqual(['product_id', 'tag_id']);
    const linkColumns = columnsOf(db, 'product_tags');
    expect(linkColumns.filter((column) => column.pk > 0).map((column) => column.name)).toEqual([
      'product_id',
      'tag_id',
    ]);
    expect(linkColumns.some((column) => column.type === 'UNIQUEIDENTIFIER')).toBe(false);
  });

  it('stores real PNG images that decode', () => {
    const images = db
      .prepare<[], { image: Buffer; width: number; byte_size: number; sha256: Buffer; file_type: string }>(
        'SELECT image, width, byte_size, sha256, file_type FROM product_images',
      )
      .all();
    expect(images.length).toBe(first.rows.product_images);
    const sizes = new Set<number>();
    for (const row of images) {
      expect(row.image.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      const decoded = PNG.sync.read(row.image);
      expect(decoded.width).toBe(row.width);
      expect(decoded.height).toBe(row.width);
      expect(row.byte_size).toBe(row.image.length);
      expect(row.sha256.equals(createHash('sha256').update(row.image).digest())).toBe(true);
      expect(row.file_type).toBe('image/png');
      sizes.add(row.image.length);
    }
    expect(sizes.size).toBeGreaterThan(images.length / 4);

    const icons = db.prepare('SELECT icon FROM categories').pluck().all() as (Buffer | null)[];
    expect(icons.filter((icon) => icon === null).length).toBeGreaterThan(0);
    for (const icon of icons) if (icon !== null) expect(PNG.sync.read(icon).width).toBe(32);
  });

  it('keeps 64-bit integers beyond 2^53 exact', () => {
    const checksums = db
      .prepare('SELECT product_id, barcode_checksum FROM products')
      .raw(true)
      .safeIntegers(true)
      .all() as [bigint, bigint][];
    const beyond = checksums.filter(([, value]) => value > 2n ** 53n || value < -(2n ** 53n));
    expect(beyond.length).toBeGreaterThan(100);
    const [productId, value] = beyond[0] ?? [0n, 0n];
    expect(Number.isSafeInteger(Number(value))).toBe(false);

    const text = db
      .prepare('SELECT CAST(barcode_checksum AS TEXT) FROM products WHERE product_id = ?')
      .pluck();
    expect(text.get(productId)).toBe(value.toString());
    const lookup = db
      .prepare('SELECT product_id FROM products WHERE barcode_checksum = ?')
      .pluck()
      .safeIntegers(true);
    expect(lookup.get(value)).toBe(productId);
    // One more than the value is a different row (or none): the comparison really is exact.
    expect(lookup.get(value + 1n)).not.toBe(productId);
  });

  it('holds text forms the exports are tested against', () => {
    const count = (sql: string): number => Number(db.prepare(sql).pluck().get());
    expect(count('SELECT COUNT(*) FROM customers WHERE instr(notes, char(10)) > 0')).toBeGreaterThan(0);
    expect(
      count(`SELECT COUNT(*) FROM customers WHERE instr(notes, '"') > 0 AND instr(notes, ',') > 0`),
    ).toBeGreaterThan(0);
    expect(count("SELECT COUNT(*) FROM customers WHERE last_name LIKE '%''%'")).toBeGreaterThan(0);
    expect(
      count("SELECT COUNT(*) FROM customers WHERE first_name IN ('Zoë', 'Jürgen', 'José')"),
    ).toBeGreaterThan(0);
    expect(count("SELECT COUNT(*) FROM customers WHERE last_name IN ('山田', '佐藤')")).toBeGreaterThan(0);
    expect(count("SELECT COUNT(*) FROM product_reviews WHERE body LIKE '%🙂%'")).toBeGreaterThan(0);

    expect(db.prepare('SELECT order_date FROM orders LIMIT 1').pluck().get()).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/,
    );
    expect(
      db.prepare('SELECT shipped_at FROM orders WHERE shipped_at IS NOT NULL LIMIT 1').pluck().get(),
    ).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    expect(db.prepare('SELECT created_at FROM customers LIMIT 1').pluck().get()).toMatch(/\.\d{7}$/);
    expect(count("SELECT COUNT(*) FROM customers WHERE last_login_at LIKE '%+05:30'")).toBeGreaterThan(0);
  });

  it('refuses to replace a database it did not create', () => {
    const foreignFile = join(temporaryDirectory(), 'someone-else.sqlite');
    const foreign = new Database(foreignFile);
    foreign.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
    foreign.close();

    expect(() => ensureDemoDatabase(foreignFile)).toThrow(/did not create/);
    const reopened = new Database(foreignFile, { readonly: true });
    expect(reopened.prepare('SELECT body FROM notes').pluck().get()).toBe('keep me');
    reopened.close();
  });

  it('builds the same data on every run, and replaces a file that lacks the finished marker', () => {
    const otherFile = join(temporaryDirectory(), 'demo.sqlite');
    writeFileSync(otherFile, 'not a database, e.g. left behind by a crash');
    const started = performance.now();
    expect(ensureDemoDatabase(otherFile).created).toBe(true);
    console.info(`second demo database created in ${Math.round(performance.now() - started)} ms`);

    const other = new Database(otherFile, { readonly: true });
    try {
      for (const table of ['customers', 'products', 'product_images', 'orders', 'order_lines']) {
        expect(tableChecksum(other, table), table).toBe(tableChecksum(db, table));
      }
    } finally {
      other.close();
    }
  });
});
