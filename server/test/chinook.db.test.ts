import SQLite from 'better-sqlite3';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { loadChinook } from './chinook.ts';

// The fixture itself: each engine gets the same 15,607 rows.
describe('the Chinook fixture', () => {
  it('loads on SQLite, PostgreSQL and MariaDB with the same rows', async () => {
    const counts: number[] = [];
    const lite = await loadChinook('sqlite');
    const s = new SQLite(lite.url.slice('sqlite:'.length));
    counts.push((s.prepare('select count(*) n from Track').get() as { n: number }).n);
    s.close();
    await lite.drop();

    const postgres = await loadChinook('postgres');
    const p = new pg.Client({ connectionString: postgres.url });
    await p.connect();
    counts.push(Number((await p.query('select count(*) n from track')).rows[0].n));
    await p.end();
    await postgres.drop();

    const maria = await loadChinook('mysql');
    const m = await mysql.createConnection({ uri: maria.url });
    const [rows] = await m.query('select count(*) n from Track');
    counts.push(Number((rows as { n: number }[])[0]!.n));
    await m.end();
    await maria.drop();

    expect(counts).toEqual([3503, 3503, 3503]);
  });
});
