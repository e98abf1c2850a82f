import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { EngineAdapter } from '#server/engines/adapter.ts';
import { defaultEngineOptions, type DynamicSchema } from '#server/engines/engine.ts';
import { loadChinook } from '#server/test/chinook.ts';
import {
  createPostgresDatabase,
  postgresServerUrl,
  type TestDatabase,
} from '#server/test/server-databases.ts';
import { postgresAdapter } from './adapter.ts';
import { openPostgres } from './connect.ts';
import { codePointSuccessor } from '#server/engines/text-prefix.ts';
import { escapeLike, prefixStrategyOf, textStartsWith, type PrefixStrategy } from './queries.ts';

/* Paging and "starts with" compiled inside full queries against the real server. */

/** Strings that trip naive prefix ranges: case, punctuation and digits (which collations order differently),
 * accents, LIKE wildcards, the highest code point and characters outside the Basic Multilingual Plane. */
const tricky = [
  'abc',
  'abcd',
  'ABCD',
  'Abc',
  'abd',
  'ab',
  'ab9',
  'ab9x',
  'AB9x',
  'ab9 z',
  'ab9-z',
  'ab9\u0301',
  'ab9😀',
  'ab9\ufffd',
  'ab:',
  'ab8z',
  'ab9Z',
  'áb9',
  'ab%x',
  'ab%',
  'abxx',
  'ab_c',
  'ab\\c',
  'abz',
  'ab{',
  'a\u{10ffff}',
  'a\u{10ffff}z',
  'b',
  '😀',
  '😀x',
  '😁',
  'é',
  'éa',
  'e',
  'z',
  'zz',
  'ab9\uffff',
  '',
];
const prefixes = [
  'abc',
  'ab',
  'a',
  'AB',
  'ab9',
  'ab9 ',
  'ab%',
  'ab_',
  'ab\\',
  'é',
  '😀',
  'a\u{10ffff}',
  'z',
  'ab9\ufffd',
];

/** Fills words(id, word) with 50,000 hex words plus the tricky ones, indexed and analysed. */
async function fillWords(db: Kysely<DynamicSchema>): Promise<void> {
  await sql`create table words (id int generated always as identity primary key, word text not null)`.execute(
    db,
  );
  await sql`insert into words (word) select md5(g::text) from generate_series(1, 50000) g`.execute(db);
  for (const word of tricky) await sql`insert into words (word) values (${word})`.execute(db);
  await sql`create index words_word on words (word)`.execute(db);
  await sql`analyze words`.execute(db);
}

/** The words the predicate finds, against what JavaScript's startsWith says. */
async function compare(db: Kysely<DynamicSchema>, strategy: PrefixStrategy, prefix: string) {
  const predicate = textStartsWith(strategy, sql.id('word'), prefix);
  const found = await sql<{
    word: string;
  }>`select word from words where ${predicate} and word !~ '^[0-9a-f]{32}$'`.execute(db);
  return {
    found: found.rows.map((r) => r.word).sort(),
    expected: tricky.filter((w) => w.startsWith(prefix)).sort(),
  };
}

async function plan(
  db: Kysely<DynamicSchema>,
  adapter: EngineAdapter,
  prefix: string,
  query: 'page' | 'count',
) {
  const predicate = adapter.textStartsWith(sql.id('word'), prefix);
  const statement =
    query === 'page'
      ? sql<{
          'QUERY PLAN': string;
        }>`explain select id, word from words where ${predicate} order by word ${adapter.limitOffset(50, 0)}`
      : sql<{ 'QUERY PLAN': string }>`explain select count(*) from words where ${predicate}`;
  return (await statement.execute(db)).rows.map((r) => r['QUERY PLAN']).join('\n');
}

describe('limitOffset and textStartsWith on Chinook', () => {
  let database: TestDatabase;
  let db: Kysely<DynamicSchema>;
  let adapter: EngineAdapter;

  beforeAll(async () => {
    database = await loadChinook('postgres');
    db = openPostgres(database.url, defaultEngineOptions);
    adapter = postgresAdapter(db, defaultEngineOptions, 'chinook');
    await adapter.readCatalog();
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('pages with bound LIMIT and OFFSET', async () => {
    const page = sql<{
      track_id: number;
    }>`select track_id from track order by track_id ${adapter.limitOffset(5, 10)}`;
    expect(page.compile(db).sql).toBe('select track_id from track order by track_id limit $1 offset $2');
    expect((await page.execute(db)).rows.map((r) => r.track_id)).toEqual([11, 12, 13, 14, 15]);
  });

  it('finds the tracks whose name starts with a prefix, case-sensitively', async () => {
    const startsWith = (prefix: string) =>
      sql<{
        name: string;
      }>`select name from track where ${adapter.textStartsWith(sql.id('name'), prefix)} order by name`
        .execute(db)
        .then((result) => result.rows.map((r) => r.name));
    const all = (await sql<{ name: string }>`select name from track`.execute(db)).rows.map((r) => r.name);
    for (const prefix of ['Love', 'love', 'The ', 'B', '(', 'Ä', '2', 'Zz']) {
      expect((await startsWith(prefix)).sort()).toEqual(all.filter((n) => n.startsWith(prefix)).sort());
    }
    // C.UTF-8 orders by code point: capitals before small letters.
    expect(await startsWith('Love Is')).toEqual([
      'Love Is Blind',
      'Love Is Blindness',
      'Love Is Strong',
      'Love Is The Colour',
      'Love Is a Losing Game',
    ]);
  });

  it('binds the prefix and the LIKE pattern, escaping % _ and \\', () => {
    const compiled =
      sql`select 1 from track where ${adapter.textStartsWith(sql.id('name'), "50%_\\'x")}`.compile(db);
    expect(compiled.sql).toBe(
      'select 1 from track where ("name" >= ($1 collate "default") and "name" < ($2 collate "default") and "name" like ($3 collate "default") escape $4)',
    );
    expect(compiled.parameters).toEqual(["50%_\\'x", "50%_\\'y", "50\\%\\_\\\\'x%", '\\']);
  });
});

describe('textStartsWith under the database default collation (C.UTF-8 here)', () => {
  let database: TestDatabase;
  let db: Kysely<DynamicSchema>;
  let adapter: EngineAdapter;
  let collation: string;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    db = openPostgres(database.url, defaultEngineOptions);
    adapter = postgresAdapter(db, defaultEngineOptions, 'words');
    await fillWords(db);
    await adapter.readCatalog();
    collation = (await sql<{ lc_collate: string }>`show lc_collate`.execute(db)).rows[0]?.lc_collate ?? '';
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('knows LIKE alone cannot use the btree index here, the range can', async () => {
    expect(collation).toMatch(/^C\.UTF-?8$/i);
    const like = await sql<{
      'QUERY PLAN': string;
    }>`explain select count(*) from words where word like 'abc%'`.execute(db);
    expect(like.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('Seq Scan');
    const page = await plan(db, adapter, 'abc', 'page');
    expect(page).toMatch(/(Index Only Scan|Index Scan|Bitmap Index Scan) (using|on) words_word/);
    expect(page).toContain("Index Cond: ((word >= 'abc'::text) AND (word < 'abd'::text))");
    expect(page).not.toContain('Seq Scan');
    const count = await plan(db, adapter, 'abc', 'count');
    expect(count).toMatch(/(Index Only Scan|Bitmap Index Scan|Index Scan) (using|on) words_word/);
    expect(count).not.toContain('Seq Scan');
  });

  it('matches exactly what startsWith matches, for every tricky prefix', async () => {
    for (const prefix of prefixes) {
      const { found, expected } = await compare(db, 'codePoint', prefix);
      expect(found, `prefix ${JSON.stringify(prefix)}`).toEqual(expected);
    }
    const { found } = await compare(db, 'codePoint', 'abc');
    expect(found).toEqual(['abc', 'abcd']); // not ABCD, not Abc
  });

  it('stays exact with only the lower bound (linguistic libc collations)', async () => {
    for (const prefix of prefixes) {
      const { found, expected } = await compare(db, 'lowerBound', prefix);
      expect(found, `prefix ${JSON.stringify(prefix)}`).toEqual(expected);
    }
    // The lower bound alone rarely narrows enough for the planner; a text_pattern_ops index answers the LIKE.
    await sql`create table words_linguistic as select * from words`.execute(db);
    await sql`create index words_pattern on words_linguistic (word text_pattern_ops)`.execute(db);
    await sql`analyze words_linguistic`.execute(db);
    const predicate = textStartsWith('lowerBound', sql.id('word'), 'abc');
    const explained = await sql<{
      'QUERY PLAN': string;
    }>`explain select count(*) from words_linguistic where ${predicate}`.execute(db);
    expect(explained.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain(
      "Index Cond: ((word ~>=~ 'abc'::text) AND (word ~<~ 'abd'::text))",
    );
  });

  it('finds a whole page of 50,000 matching rows from the index', async () => {
    const predicate = adapter.textStartsWith(sql.id('word'), 'a');
    const page = await sql<{
      word: string;
    }>`select word from words where ${predicate} order by word ${adapter.limitOffset(50, 100)}`.execute(db);
    expect(page.rows.length).toBe(50);
    expect(page.rows.every((r) => r.word.startsWith('a'))).toBe(true);
  });

  it('compares an enum column as text when the caller says its type', async () => {
    await sql`create type mood as enum ('happy', 'hungry', 'sad')`.execute(db);
    await sql`create table moods (m mood)`.execute(db);
    await sql`insert into moods values ('happy'), ('hungry'), ('sad')`.execute(db);
    // An enum takes no collation and no range of arbitrary text: with the column's type it is compared as text.
    const predicate = textStartsWith('codePoint', sql.id('m'), 'h', { type: 'mood' });
    const rows = await sql<{ m: string }>`select m from moods where ${predicate} order by m`.execute(db);
    expect(rows.rows.map((r) => r.m)).toEqual(['happy', 'hungry']);
  });
});

describe('textStartsWith in an ICU database', () => {
  const name = `dbui_icu_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  let db: Kysely<DynamicSchema>;
  let adapter: EngineAdapter;

  async function admin(statement: string) {
    const client = new pg.Client({ connectionString: postgresServerUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    // The name is ours (letters, digits, _): an identifier cannot be a bound parameter here.
    await admin(
      `create database "${name}" locale_provider icu icu_locale 'en-US' locale 'C.UTF-8' template template0`,
    );
    const url = new URL(postgresServerUrl);
    url.pathname = `/${name}`;
    db = openPostgres(url.toString(), defaultEngineOptions);
    adapter = postgresAdapter(db, defaultEngineOptions, 'icu');
    await fillWords(db);
    await adapter.readCatalog();
  });
  afterAll(async () => {
    await db?.destroy();
    await admin(`drop database if exists "${name}" with (force)`);
  });

  it('uses the index and matches exactly what startsWith matches', async () => {
    // Under ICU the code-point successor is wrong: ':' sorts before '9', so 'ab9' < 'ab9x' < 'ab:' does not hold.
    const successor = await sql<{ inside: boolean }>`select 'ab9x' < 'ab:' as inside`.execute(db);
    expect(successor.rows[0]?.inside).toBe(false);
    for (const prefix of prefixes) {
      const { found, expected } = await compare(db, 'icu', prefix);
      expect(found, `prefix ${JSON.stringify(prefix)}`).toEqual(expected);
    }
    expect((await compare(db, 'icu', 'abc')).found).toEqual(['abc', 'abcd']);
    // The adapter learnt the strategy from the catalog read; the code-point range ['ab9', 'ab:') is empty here.
    expect(sql`${adapter.textStartsWith(sql.id('word'), 'ab9')}`.compile(db).parameters[1]).toBe('ab9\uffff');
    expect((await compare(db, 'codePoint', 'ab9')).found).toEqual([]);
    expect(await plan(db, adapter, 'ab9', 'page')).toMatch(
      /(Index Only Scan|Index Scan|Bitmap Index Scan) (using|on) words_word/,
    );
    expect(await plan(db, adapter, 'ab9', 'count')).not.toContain('Seq Scan');
  });
});

describe('prefix bounds', () => {
  it('chooses the range by the default collation and encoding', () => {
    expect(prefixStrategyOf('c', 'C', 'UTF8')).toBe('codePoint');
    expect(prefixStrategyOf('c', 'POSIX', 'UTF8')).toBe('codePoint');
    expect(prefixStrategyOf('c', 'C.UTF-8', 'UTF8')).toBe('codePoint');
    expect(prefixStrategyOf('c', 'C.utf8', 'UTF8')).toBe('codePoint');
    expect(prefixStrategyOf('b', 'C', 'UTF8')).toBe('codePoint');
    expect(prefixStrategyOf('i', 'C.UTF-8', 'UTF8')).toBe('icu');
    expect(prefixStrategyOf('c', 'en_US.UTF-8', 'UTF8')).toBe('lowerBound');
    expect(prefixStrategyOf('c', 'C', 'LATIN1')).toBe('lowerBound');
  });

  it('computes the code-point successor, past the highest code point and the surrogates', () => {
    expect(codePointSuccessor('abc')).toBe('abd');
    expect(codePointSuccessor('a\u{10ffff}')).toBe('b');
    expect(codePointSuccessor('a\u{10ffff}\u{10ffff}')).toBe('b');
    expect(codePointSuccessor('\u{10ffff}')).toBeNull();
    expect(codePointSuccessor('x\ud7ff')).toBe('x\ue000');
    expect(codePointSuccessor('a😀')).toBe('a😁');
    expect(codePointSuccessor('a\uffff')).toBe('a\u{10000}');
  });

  it('escapes LIKE wildcards', () => {
    expect(escapeLike('50%_a\\b')).toBe('50\\%\\_a\\\\b');
  });
});
