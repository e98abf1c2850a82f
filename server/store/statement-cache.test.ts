import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '#server/test/temp-dir.ts';
import { cachingStatements } from './statement-cache.ts';

const dir = tempDir();
afterAll(() => dir.remove());

function database() {
  const db = new SQLite(':memory:');
  db.exec('create table t (id integer primary key, name text)');
  db.exec("insert into t (name) values ('a'), ('b'), ('c')");
  return db;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('cachingStatements', () => {
  it('compiles a statement once and gives it again for the same text', () => {
    const db = database();
    const cached = cachingStatements(db);
    const first = cached.prepare('select name from t where id = ?');
    expect(cached.prepare('select name from t where id = ?')).toBe(first);
    expect(first.all([2])).toEqual([{ name: 'b' }]);
    expect(cached.prepare('select name from t where id = ?').all([3])).toEqual([{ name: 'c' }]);
    cached.close();
    expect(db.open).toBe(false);
  });

  it('gives a fresh statement while the kept one is being read (a stream over it)', () => {
    const cached = cachingStatements(database());
    const kept = cached.prepare('select name from t order by id') as unknown as SQLite.Statement;
    const reading = kept.iterate();
    expect(reading.next().value).toEqual({ name: 'a' });
    const other = cached.prepare('select name from t order by id');
    expect(other).not.toBe(kept);
    expect(other.all([])).toHaveLength(3);
    expect([...reading]).toEqual([{ name: 'b' }, { name: 'c' }]);
    // Read to the end, the kept one is given again.
    expect(cached.prepare('select name from t order by id')).toBe(kept);
  });

  it('keeps at most `size` statements, dropping the least recently used', () => {
    const cached = cachingStatements(database(), 2);
    const one = cached.prepare('select 1');
    const two = cached.prepare('select 2');
    expect(cached.prepare('select 1')).toBe(one);
    cached.prepare('select 3');
    expect(cached.prepare('select 1')).toBe(one);
    expect(cached.prepare('select 2')).not.toBe(two);
  });

  it('sees a column a migration added after the statement was kept', () => {
    const db = database();
    const cached = cachingStatements(db);
    expect(cached.prepare('select * from t where id = ?').all([1])).toEqual([{ id: 1, name: 'a' }]);
    cached.prepare('alter table t add column note text').run([]);
    expect(cached.prepare('select * from t where id = ?').all([1])).toEqual([
      { id: 1, name: 'a', note: null },
    ]);
  });

  it('counts the statements that write (not reads, nor BEGIN and COMMIT) as they are prepared to run', () => {
    const cached = cachingStatements(database());
    expect(cached.writes()).toBe(0);
    cached.prepare('select name from t where id = ?').all([1]);
    cached.prepare('begin').run();
    expect(cached.writes()).toBe(0);
    cached.prepare('update t set name = ? where id = ?').run(['z', 1]);
    cached.prepare('commit').run();
    expect(cached.writes()).toBe(1);
    // A kept statement counts each time it is given again.
    cached.prepare('update t set name = ? where id = ?').run(['y', 2]);
    cached.prepare('delete from t where id = ?').run([3]);
    expect(cached.writes()).toBe(3);
  });

  it("reads SQLite's data_version: changed by another connection's commit, not by its own writes", async () => {
    const file = path.join(dir.path, 'versions.db');
    const cached = cachingStatements(new SQLite(file));
    cached.prepare('create table t (id integer primary key)').run();
    const before = cached.dataVersion();
    cached.prepare('insert into t (id) values (1)').run();
    expect(cached.dataVersion()).toBe(before);
    const other = new SQLite(file);
    other.prepare('insert into t (id) values (2)').run();
    other.close();
    // Read once a turn of the event loop: the commit counts from the next one.
    expect(cached.dataVersion()).toBe(before);
    await nextTurn();
    expect(cached.dataVersion()).not.toBe(before);
    cached.close();
  });

  it('in WAL mode, sees every commit of another connection in the WAL-index header, and not its reads', async () => {
    const file = path.join(dir.path, 'wal.db');
    const database = new SQLite(file);
    database.pragma('journal_mode = WAL');
    const cached = cachingStatements(database);
    cached.prepare('create table t (id integer primary key, name text)').run();
    let version = cached.dataVersion();
    expect(cached.dataVersion()).toBe(version);
    const otherCommits = (sql: string) => {
      const other = new SQLite(file);
      other.prepare(sql).run();
      other.close();
    };
    for (const sql of [
      "insert into t (name) values ('a')",
      "update t set name = 'b'",
      "insert into t (name) values ('c')",
    ]) {
      otherCommits(sql);
      await nextTurn();
      const next = cached.dataVersion();
      expect(next, sql).not.toBe(version);
      expect(cached.dataVersion()).toBe(next);
      version = next;
    }
    // Reads, this connection's or another's, leave it.
    cached.prepare('select name from t').all();
    await nextTurn();
    version = cached.dataVersion();
    const reader = new SQLite(file);
    reader.prepare('select name from t').all();
    reader.close();
    await nextTurn();
    expect(cached.dataVersion()).toBe(version);
    // The log restarted by a checkpoint, then a commit of the same size as an earlier one.
    cached.prepare('pragma wal_checkpoint(truncate)').run();
    await nextTurn();
    version = cached.dataVersion();
    otherCommits("update t set name = 'b'");
    await nextTurn();
    expect(cached.dataVersion()).not.toBe(version);
    cached.close();
  });
});
