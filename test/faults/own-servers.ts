import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import mysql from 'mysql2/promise';

/*
 * Database servers of a fault test's own. The fault suite stops, freezes and kills database servers, which it must
 * never do to the shared PostgreSQL (5432) and MariaDB (3306) every other test uses. So each test file starts its
 * own server: an empty data folder under the system temp folder, a free port on 127.0.0.1, and a process this
 * module started and alone signals, by its id.
 *
 *   const server = await startOwnPostgres();      // or startOwnMariadb()
 *   afterAll(() => server.close());               // kills it and removes its folder, also after a failed test
 *   const url = await server.createDatabase();    // postgres://postgres@127.0.0.1:PORT/NAME (mysql://root@…)
 *   await server.query('create table t (id int)', url);
 *   server.freeze();  server.thaw();              // SIGSTOP / SIGCONT every process of the server
 *   await server.stop();  await server.start();   // a clean shutdown, and a start on the same port and folder
 *   await server.kill();                          // SIGKILL, as a crash
 *
 * Start one server per test file (about 1 s for PostgreSQL, 2 s for MariaDB) and share it between its tests.
 * Superuser access is without a password on 127.0.0.1: postgres (trust) and root (normal authentication, empty
 * password). As root, PostgreSQL runs as the `postgres` OS user (it refuses to run as root) and MariaDB as root
 * (`--user=root`). Binaries: the newest /usr/lib/postgresql/<version>/bin (PG_BIN overrides) and mariadbd /
 * mariadb-install-db on the PATH or in /usr/sbin and /usr/bin.
 *
 * Clean-up does not depend on a test reaching its afterAll: the servers still running when the test process exits
 * are killed (SIGKILL) and their folders removed, and a start first sweeps folders that a test process which died
 * without exiting (killed by a timeout) left behind, killing their server by the id written there.
 */

export type OwnServerKind = 'postgres' | 'mariadb';

export interface OwnServer {
  readonly kind: OwnServerKind;
  /** The port on 127.0.0.1; the same after a stop and start. */
  readonly port: number;
  /** The server's folder (data, socket, log); close() removes it. */
  readonly dir: string;
  /** True from start() until stop(), kill() or close() (also while frozen). */
  readonly running: boolean;
  /** True between freeze() and thaw(). */
  readonly frozen: boolean;
  /** The superuser's URL of a database on this server, as DATABASES takes it (postgres://… or mysql://…); without
   * a name, the server's own (postgres, or no database for MariaDB). */
  url(database?: string): string;
  /** Creates an empty database (a unique name unless given) and answers its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Runs one statement as the superuser, on a connection of its own (closed after), in the database of `url`
   * (default: the server's own); answers the rows. For test setup and checks; the server must be running. */
  query(sqlText: string, url?: string): Promise<unknown[]>;
  /** Every process of the server: the postmaster and its children (PostgreSQL), the one mariadbd (MariaDB). */
  pids(): number[];
  /** SIGSTOP to every process of the server: connections stay open, the kernel still accepts new ones, nothing
   * answers. A database frozen this way cannot time out its own statements. */
  freeze(): void;
  /** SIGCONT: the server carries on where it stood; its open connections work again. */
  thaw(): void;
  /** A clean, prompt shutdown, resolved when the process has exited: SIGTERM for MariaDB, SIGINT for PostgreSQL (its
   * "fast" shutdown; SIGTERM there waits until every client has disconnected, which a pool never does). Thaws a
   * frozen server first. Clients see their connections closed, then connections refused. */
  stop(): Promise<void>;
  /** SIGKILL to every process, as a crash; resolved when they are gone. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and data; resolves when it answers a query. */
  start(): Promise<void>;
  /** stop() then start(). */
  restart(): Promise<void>;
  /** Kills the server (whatever its state) and removes its folder; safe to call twice. */
  close(): Promise<void>;
}

/** How long a server may take to answer after its process starts. */
const READY_TIMEOUT_MS = 30_000;
/** How long a clean shutdown may take before the test fails. */
const STOP_TIMEOUT_MS = 20_000;
const FOLDER_PREFIX = 'dbui-own-';

/** Starts a PostgreSQL server of the test's own: initdb into a new folder, then postgres on a free port. */
export async function startOwnPostgres(): Promise<OwnServer> {
  const bin = postgresBin();
  const owner = serverUser('postgres');
  const server = await OwnServerProcess.create('postgres', owner);
  const data = path.join(server.dir, 'data');
  runToEnd(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'],
    owner,
    server.logFile,
  );
  server.command = () => ({
    file: path.join(bin, 'postgres'),
    args: [
      '-D',
      data,
      '-p',
      String(server.port),
      '-k',
      server.dir,
      '-c',
      'listen_addresses=127.0.0.1',
      // A test server: speed over durability (a crash test kills DBUI, not this server, mid-write).
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'shared_buffers=64MB',
      '-c',
      'max_connections=200',
    ],
  });
  await server.start();
  return server;
}

/** Starts a MariaDB server of the test's own: mariadb-install-db into a new folder, then mariadbd on a free port,
 * with normal authentication (root, empty password). */
export async function startOwnMariadb(): Promise<OwnServer> {
  const server = await OwnServerProcess.create('mariadb', null);
  const data = path.join(server.dir, 'data');
  const asRoot = process.getuid?.() === 0;
  runToEnd(
    findBinary(['mariadb-install-db', 'mysql_install_db']),
    [
      '--no-defaults',
      `--datadir=${data}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      ...(asRoot ? ['--user=root'] : []),
    ],
    null,
    server.logFile,
  );
  server.command = () => ({
    file: findBinary(['mariadbd', 'mysqld']),
    args: [
      '--no-defaults',
      `--datadir=${data}`,
      `--port=${server.port}`,
      '--bind-address=127.0.0.1',
      `--socket=${path.join(server.dir, 'mariadb.sock')}`,
      `--pid-file=${path.join(server.dir, 'mariadb.pid')}`,
      `--log-error=${path.join(server.dir, 'mariadb-error.log')}`,
      '--skip-log-bin',
      '--innodb-buffer-pool-size=64M',
      '--innodb-log-file-size=32M',
      // A test server: speed over durability.
      '--innodb-flush-log-at-trx-commit=0',
      '--innodb-doublewrite=0',
      '--max-connections=300',
      ...(asRoot ? ['--user=root'] : []),
    ],
  });
  await server.start();
  return server;
}

/**
 * A `with` clause for MariaDB naming the numbers 1…count as column `i` of `numbers`, for inserts of many rows
 * (`insert into t (a) ${mariadbNumbers(1e6)} select i from numbers`). MariaDB stops a recursive query after
 * max_recursive_iterations (1,000 by default), so it crosses a thousand numbers with themselves (up to a million).
 */
export function mariadbNumbers(count: number): string {
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000) throw new Error('1 to 1,000,000 numbers');
  return `with recursive digits(d) as (select 0 union all select d + 1 from digits where d < 999), numbers(i) as (select a.d * 1000 + b.d + 1 from digits a cross join digits b where a.d * 1000 + b.d < ${count})`;
}

interface OsUser {
  uid: number;
  gid: number;
}

/** The servers of this process that are not closed yet: killed at exit whatever happened to the tests. */
const live = new Set<OwnServerProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const server of live) server.closeNow();
  });
}

class OwnServerProcess implements OwnServer {
  command: () => { file: string; args: string[] } = () => {
    throw new Error('no command to start the server with');
  };
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private isFrozen = false;
  readonly logFile: string;

  private constructor(
    readonly kind: OwnServerKind,
    readonly port: number,
    readonly dir: string,
    private readonly owner: OsUser | null,
  ) {
    this.logFile = path.join(dir, 'server.log');
  }

  static async create(kind: OwnServerKind, owner: OsUser | null): Promise<OwnServerProcess> {
    sweepAbandonedFolders();
    installExitHook();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${FOLDER_PREFIX}${kind}-`));
    // Written first, so a sweep can tell whose folder this is even if the start fails half-way.
    fs.writeFileSync(path.join(dir, 'owner.json'), JSON.stringify({ testPid: process.pid, serverPid: null }));
    if (owner) fs.chownSync(dir, owner.uid, owner.gid);
    const server = new OwnServerProcess(kind, await freePort(), dir, owner);
    live.add(server);
    return server;
  }

  get running(): boolean {
    return this.child !== null;
  }

  get frozen(): boolean {
    return this.isFrozen;
  }

  url(database?: string): string {
    return this.kind === 'postgres'
      ? `postgres://postgres@127.0.0.1:${this.port}/${database ?? 'postgres'}`
      : `mysql://root@127.0.0.1:${this.port}/${database ?? ''}`;
  }

  async createDatabase(name = `faults_${randomBytes(4).toString('hex')}`): Promise<string> {
    if (!/^\w+$/.test(name)) throw new Error(`database names here are letters, digits and _: ${name}`);
    await this.query(
      this.kind === 'postgres'
        ? `create database "${name}"`
        : `create database \`${name}\` character set utf8mb4`,
    );
    return this.url(name);
  }

  async query(sqlText: string, url = this.url()): Promise<unknown[]> {
    if (this.kind === 'postgres') {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      await client.connect();
      try {
        return (await client.query(sqlText)).rows as unknown[];
      } finally {
        await client.end();
      }
    }
    const connection = await mysql.createConnection({
      uri: url,
      connectTimeout: 5000,
      multipleStatements: false,
    });
    try {
      const [rows] = await connection.query(sqlText);
      return Array.isArray(rows) ? (rows as unknown[]) : [rows];
    } finally {
      await connection.end();
    }
  }

  pids(): number[] {
    const main = this.child?.pid;
    if (main === undefined) return [];
    // PostgreSQL's backends make themselves process-group leaders (setsid), so a signal to the postmaster's group
    // misses them: they are found as its children instead.
    return [main, ...childrenOf(main)];
  }

  freeze(): void {
    const [main, ...children] = this.pids();
    if (main === undefined) throw new Error(`the ${this.kind} server is not running`);
    // The postmaster first, so it forks no new backend that the loop would miss.
    signal(main, 'SIGSTOP');
    for (const pid of children) signal(pid, 'SIGSTOP');
    for (const pid of childrenOf(main)) signal(pid, 'SIGSTOP');
    this.isFrozen = true;
  }

  thaw(): void {
    const [main, ...children] = this.pids();
    for (const pid of children) signal(pid, 'SIGCONT');
    if (main !== undefined) signal(main, 'SIGCONT');
    this.isFrozen = false;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    if (this.isFrozen) this.thaw();
    signal(child.pid, this.kind === 'postgres' ? 'SIGINT' : 'SIGTERM');
    await within(this.exited, STOP_TIMEOUT_MS, `the ${this.kind} server did not stop`);
  }

  async kill(): Promise<void> {
    for (const pid of this.pids()) signal(pid, 'SIGKILL');
    this.isFrozen = false;
    await within(this.exited, STOP_TIMEOUT_MS, `the ${this.kind} server did not die`);
  }

  async start(): Promise<void> {
    if (this.child) throw new Error(`the ${this.kind} server is running already`);
    const { file, args } = this.command();
    const log = fs.openSync(this.logFile, 'a');
    const child = spawn(file, args, {
      stdio: ['ignore', log, log],
      ...(this.owner ? { uid: this.owner.uid, gid: this.owner.gid } : {}),
    });
    fs.closeSync(log);
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        if (this.child === child) this.child = null;
        resolve();
      }),
    );
    // A spawn failure (no such binary) is reported on 'error' and then 'exit'; the wait below sees the exit.
    child.once('error', () => undefined);
    this.writeOwner(child.pid ?? null);
    const until = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (this.child !== child)
        throw new Error(`the ${this.kind} server exited at start:\n${this.logTail()}`);
      try {
        await this.query('select 1');
        return;
      } catch (error) {
        if (Date.now() > until) {
          throw new Error(
            `the ${this.kind} server did not answer within ${READY_TIMEOUT_MS} ms (${String(error)}):\n${this.logTail()}`,
            { cause: error },
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async close(): Promise<void> {
    if (!live.has(this)) return;
    if (this.child) await this.kill().catch(() => undefined);
    this.closeNow();
  }

  /** Synchronous, for the exit hook: SIGKILL whatever runs, remove the folder. */
  closeNow(): void {
    for (const pid of this.pids()) signal(pid, 'SIGKILL');
    this.child = null;
    fs.rmSync(this.dir, { recursive: true, force: true });
    live.delete(this);
  }

  private writeOwner(serverPid: number | null): void {
    fs.writeFileSync(path.join(this.dir, 'owner.json'), JSON.stringify({ testPid: process.pid, serverPid }));
  }

  private logTail(): string {
    const files = [this.logFile, path.join(this.dir, 'mariadb-error.log')].filter((f) => fs.existsSync(f));
    return files.map((f) => fs.readFileSync(f, 'utf8').split('\n').slice(-15).join('\n')).join('\n');
  }
}

/** Sends a signal to a process that may have exited already. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** The ids of the processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": the command may hold spaces and parentheses, so read after the last ')'.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Folders of servers whose test process is gone (killed without running its exit hook): their server is killed by
 * the id written there, and the folder removed. */
function sweepAbandonedFolders(): void {
  for (const entry of fs.readdirSync(os.tmpdir())) {
    if (!entry.startsWith(FOLDER_PREFIX)) continue;
    const dir = path.join(os.tmpdir(), entry);
    try {
      const owner = JSON.parse(fs.readFileSync(path.join(dir, 'owner.json'), 'utf8')) as {
        testPid: number;
        serverPid: number | null;
      };
      if (isAlive(owner.testPid)) continue;
      if (owner.serverPid !== null && isAlive(owner.serverPid)) {
        for (const pid of [owner.serverPid, ...childrenOf(owner.serverPid)]) signal(pid, 'SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Not ours after all, or another sweep got there first.
    }
  }
}

/** A port nobody listens on at this moment. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** The OS user a server must run as: PostgreSQL refuses root, so as root it runs as `name`. */
function serverUser(name: string): OsUser | null {
  if (process.getuid?.() !== 0) return null;
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error(`no OS user ${name} to run the server as`);
  return { uid: Number(uid), gid: Number(gid) };
}

function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0])
    throw new Error('no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (set PG_BIN)');
  return path.join(root, versions[0], 'bin');
}

function findBinary(names: string[]): string {
  const folders = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/usr/local/bin'];
  for (const name of names) {
    for (const folder of folders) {
      const file = path.join(folder, name);
      if (folder && fs.existsSync(file)) return file;
    }
  }
  throw new Error(`none of ${names.join(', ')} is installed`);
}

/** Runs a setup command to its end (as `owner` when given); throws with its output when it fails. */
function runToEnd(file: string, args: string[], owner: OsUser | null, logFile: string): void {
  const result = spawnSync(file, args, {
    encoding: 'utf8',
    ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
    // initdb changes into the data folder's parent; as another user it must not start from a folder it cannot read.
    cwd: os.tmpdir(),
  });
  fs.appendFileSync(logFile, `${result.stdout ?? ''}${result.stderr ?? ''}`);
  if (result.status !== 0) {
    throw new Error(
      `${path.basename(file)} failed (${result.status ?? result.error?.message}):\n${result.stderr ?? ''}`,
    );
  }
}

function within(work: Promise<void>, ms: number, message: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
