import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';

/*
 * The container files of deploy/docker/ (docs/decisions/0058-containers-and-releases.md). No Docker daemon runs where
 * DBUI is developed or tested, so no image is built here: the compose files are read and checked by Debian's
 * `docker-compose config` (it resolves and validates a file without a daemon; .ci/run installs it), and the
 * Dockerfile by dockerfile-utils' linter (the one Docker's VS Code language server uses), with the rules below.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const docker = path.join(root, 'deploy/docker');
const read = (file: string) => fs.readFileSync(path.join(docker, file), 'utf8');

const hasCompose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;
if (!hasCompose) {
  console.warn(
    'deploy/docker: docker-compose is not installed, so the compose files were NOT checked (apt-get install docker-compose).',
  );
}

/** `docker-compose -f FILE ARGS` in deploy/docker, with only the variables given (none of this shell's). */
function compose(file: string, args: string[], env: Record<string, string> = {}) {
  const run = spawnSync('docker-compose', ['-f', file, ...args], {
    cwd: docker,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

/** The names declared under a top-level key (`services:`, `volumes:`) of docker-compose's resolved output. */
function namesUnder(config: string, key: string): string[] {
  const start = config.split('\n').indexOf(`${key}:`);
  if (start < 0) return [];
  const names: string[] = [];
  for (const line of config.split('\n').slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const name = /^ {2}([\w.-]+):/.exec(line)?.[1];
    if (name) names.push(name);
  }
  return names.sort();
}

describe.skipIf(!hasCompose)('the compose files, by docker-compose config', () => {
  it('compose.yaml: one DBUI on embedded defaults, its data in a volume, a key made once there', () => {
    const config = compose('compose.yaml', ['config']);
    expect(config.err).toBe('');
    expect(config.code).toBe(0);
    expect(namesUnder(config.out, 'services')).toEqual(['dbui']);
    expect(namesUnder(config.out, 'volumes')).toEqual(['dbui-data']);
    expect(config.out).toContain('- dbui-data:/data:rw');
    // No SECRET_KEY: DBUI makes secret.key in /data on the first start and reads it at every later one, where a
    // key made by the command line at each `up` would stop the second start.
    expect(config.out).not.toContain('SECRET_KEY');
    // A local run gets an address a browser (and a passkey) can use; the operator's own wins.
    expect(config.out).toContain('PUBLIC_URL: http://localhost:8080');
    expect(compose('compose.yaml', ['config'], { PUBLIC_URL: 'https://dbui.example.com' }).out).toContain(
      'PUBLIC_URL: https://dbui.example.com',
    );
    expect(config.out).toContain('stop_grace_period: 15s');
  });

  it('compose.scale.yaml: two instances behind nginx sharing one key, made once', () => {
    const config = compose('compose.scale.yaml', ['config']);
    expect(config.err).toBe('');
    expect(config.code).toBe(0);
    expect(namesUnder(config.out, 'services')).toEqual([
      'dbui-1',
      'dbui-2',
      'nginx',
      'postgres',
      'redis',
      'secret-key',
    ]);
    expect(namesUnder(config.out, 'volumes')).toEqual([
      'dbui-1-data',
      'dbui-2-data',
      'dbui-exports',
      'dbui-secret',
      'postgres-data',
      'redis-data',
    ]);
    // Each instance reads the key the secret-key service made, after it finished, and nothing sets another.
    expect(config.out.match(/- dbui-secret:\/secret:ro/g)).toHaveLength(2);
    expect(config.out.match(/secret-key:\n\s+condition: service_completed_successfully/g)).toHaveLength(2);
    expect(config.out.match(/SECRET_KEY_FILE: \/secret\/key/g)).toHaveLength(2);
    expect(config.out).not.toMatch(/^\s+SECRET_KEY:/m);
  });
});

/** The Dockerfile's instructions, continuation lines joined, comments left out. */
function instructions(text: string): string[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The instructions of each stage (FROM to the next FROM). */
function stages(list: string[]): string[][] {
  const result: string[][] = [];
  for (const instruction of list) {
    if (instruction.startsWith('FROM ')) result.push([]);
    result.at(-1)?.push(instruction);
  }
  return result;
}

describe('the Dockerfile', () => {
  const text = read('Dockerfile');
  const all = instructions(text);
  const [packages, production, build, runtime] = stages(all);

  it('passes the linter', () => {
    const problems = validate(text).map(
      (diagnostic) => `line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`,
    );
    expect(problems).toEqual([]);
  });

  it('builds on the current Node LTS, a version package.json supports', () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)-[a-z]+-slim$/.exec(all[0] ?? '');
    expect(image?.[1]).toBe('24');
    const engines = (
      JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        engines: { node: string };
      }
    ).engines.node;
    expect(engines).toContain(`^${image?.[1]}.`);
    // Every stage starts from that image or from an earlier stage.
    const froms = all.filter((line) => line.startsWith('FROM ')).map((line) => line.split(/\s+/)[1]);
    expect(froms).toEqual(['${NODE_IMAGE}', 'packages', 'packages', '${NODE_IMAGE}']);
  });

  it('installs the packages from the lock file before it copies the source, without running scripts', () => {
    expect(packages).toContain('COPY package.json package-lock.json ./');
    expect(packages?.some((line) => line.startsWith('COPY scripts/no-msgpackr-extract/'))).toBe(true);
    expect(packages?.some((line) => line.startsWith('COPY . '))).toBe(false);
    expect(production?.join('\n')).toMatch(/npm ci --omit=dev --ignore-scripts/);
    const buildSteps = build ?? [];
    const install = buildSteps.findIndex((line) => /npm ci --ignore-scripts/.test(line));
    const source = buildSteps.indexOf('COPY . .');
    expect(install).toBeGreaterThan(0);
    expect(source).toBeGreaterThan(install);
    expect(buildSteps.indexOf('RUN npm run build')).toBeGreaterThan(source);
  });

  it('runs the built app as an unprivileged user, with a health check, and no compiler or source', () => {
    const run = runtime ?? [];
    expect(run.some((line) => line.startsWith('USER node'))).toBe(true);
    expect(run.findIndex((line) => line.startsWith('USER node'))).toBeLessThan(
      run.findIndex((line) => line.startsWith('CMD ')),
    );
    expect(run.find((line) => line.startsWith('HEALTHCHECK'))).toContain('/api/health/alive');
    expect(run.some((line) => /apt-get|npm ci|COPY \. /.test(line))).toBe(false);
    expect(run.filter((line) => line.startsWith('COPY ')).every((line) => line.includes('--from='))).toBe(
      true,
    );
    expect(run.at(-1)).toBe('CMD ["node", "dist/server/main.js"]');
  });

  it('leaves installed packages, builds, data and git out of the build context', () => {
    const ignored = lines(read('Dockerfile.dockerignore')).filter((line) => !line.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', 'data', '.git']));
  });
});
