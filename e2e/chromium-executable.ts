import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

/*
 * The Chromium the browser tests drive, so that `npm test` needs no browser installed by hand: CHROMIUM_PATH when
 * set, else Debian's /usr/bin/chromium when installed, else the Chromium that ships inside the @sparticuz/chromium
 * devDependency (Linux x64, a headless build that runs on Debian's own libraries), unpacked once from the package
 * into the temporary folder. Nothing is downloaded at test time: the binary came with `npm ci`.
 */

/** Debian's Chromium (apt-get install chromium). */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const PACKAGE = '@sparticuz/chromium';

/** The path of the Chromium executable to launch. */
export async function chromiumExecutable(): Promise<string> {
  const given = process.env.CHROMIUM_PATH;
  if (given) {
    if (!isExecutable(given)) throw new Error(`CHROMIUM_PATH: ${given} is not an executable file.`);
    return given;
  }
  if (isExecutable(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  return packagedChromium();
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The package's brotli-compressed binary, unpacked to $TMPDIR/dbui-chromium-<version>/chromium on first use. */
async function packagedChromium(): Promise<string> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `No Chromium for the browser tests: ${SYSTEM_CHROMIUM} is missing and ${PACKAGE} carries a Linux x64 build only. ` +
        'Install Chromium, or set CHROMIUM_PATH to a Chromium or Chrome executable.',
    );
  }
  // The package exports only its entry (build/cjs/index.cjs); its files sit two folders above it.
  const root = path.resolve(path.dirname(createRequire(import.meta.url).resolve(PACKAGE)), '..', '..');
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  const folder = path.join(os.tmpdir(), `dbui-chromium-${version}`);
  const executable = path.join(folder, 'chromium');
  if (isExecutable(executable)) return executable;
  fs.mkdirSync(folder, { recursive: true });
  // Written aside and renamed into place, so a run interrupted half way, or two runs at once, never leave a
  // truncated binary under the final name.
  const partial = `${executable}.${process.pid}.partial`;
  try {
    await pipeline(
      fs.createReadStream(path.join(root, 'bin', 'chromium.br')),
      zlib.createBrotliDecompress(),
      fs.createWriteStream(partial, { mode: 0o755 }),
    );
    fs.renameSync(partial, executable);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return executable;
}
