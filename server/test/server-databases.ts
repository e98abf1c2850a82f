import { randomBytes } from 'node:crypto';
import pg from 'pg';
import mysql from 'mysql2/promise';

/*
 * Real database servers for tests (PostgreSQL and MariaDB run on this machine and in CI). Each test gets its own
 * database with a unique name and drops it afterwards. POSTGRES_TEST_URL and MYSQL_TEST_URL point elsewhere.
 */

export const postgresServerUrl =
  process.env.POSTGRES_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const mysqlServerUrl = process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306/';

/** A database made for one test: its URL and how to drop it. */
export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

const uniqueName = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates an empty PostgreSQL database. */
export async function createPostgresDatabase(prefix = 'dbui_test'): Promise<TestDatabase> {
  const name = uniqueName(prefix);
  const admin = new pg.Client({ connectionString: postgresServerUrl });
  await admin.connect();
  try {
    // The name is ours (letters, digits, _), never input: an identifier cannot be a bound parameter here.
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabase(postgresServerUrl, name),
    async drop() {
      const client = new pg.Client({ connectionString: postgresServerUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Creates an empty MySQL/MariaDB database. */
export async function createMysqlDatabase(prefix = 'dbui_test'): Promise<TestDatabase> {
  const name = uniqueName(prefix);
  const admin = await mysql.createConnection({ uri: mysqlServerUrl });
  try {
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabase(mysqlServerUrl, name),
    async drop() {
      const client = await mysql.createConnection({ uri: mysqlServerUrl });
      try {
        await client.query(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await client.end();
      }
    },
  };
}
