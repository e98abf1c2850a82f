import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import mysql from 'mysql2/promise';
import type { EngineKind } from '#server/engines/engine.ts';
import { createMysqlDatabase, createPostgresDatabase, type TestDatabase } from './server-databases.ts';
import { tempDir } from './temp-dir.ts';

/*
 * The Chinook sample (MIT, fixtures/chinook/LICENSE.md) loaded into a fresh database of each engine. The scripts
 * create and select their own database; we skip that part and load the tables into the test's own database.
 */

const fixtures = path.join(import.meta.dirname, 'fixtures', 'chinook');

function script(file: string, startMarker: RegExp): string {
  const text = fs.readFileSync(path.join(fixtures, file), 'utf8');
  const start = text.search(startMarker);
  if (start < 0) throw new Error(`${file}: cannot find where the tables start`);
  return text.slice(start);
}

/** A Chinook database of the given engine: its URL (sqlite:FILE for SQLite) and how to drop it. */
export async function loadChinook(kind: Exclude<EngineKind, 'mssql'>): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = tempDir('dbui-chinook-');
    const file = path.join(dir.path, 'chinook.db');
    const db = new SQLite(file);
    db.exec(fs.readFileSync(path.join(fixtures, 'Chinook_Sqlite_AutoIncrementPKs.sql'), 'utf8'));
    db.close();
    return { name: 'chinook', url: `sqlite:${file}`, drop: async () => dir.remove() };
  }
  if (kind === 'postgres') {
    const database = await createPostgresDatabase('chinook');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(script('Chinook_PostgreSql_AutoIncrementPKs.sql', /CREATE TABLE/));
    } finally {
      await client.end();
    }
    return database;
  }
  const database = await createMysqlDatabase('chinook');
  const client = await mysql.createConnection({ uri: database.url, multipleStatements: true });
  try {
    await client.query(script('Chinook_MySql_AutoIncrementPKs.sql', /CREATE TABLE/));
  } finally {
    await client.end();
  }
  return database;
}
