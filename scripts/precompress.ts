// The web app's files compressed once, at build time (decision 0055): beside each file worth it, `name.br` (brotli,
// quality 11) and `name.gz` (gzip, level 9). The server sends them with @fastify/static's `preCompressed` (server/app.ts)
// and nginx with `gzip_static` (deploy/nginx), so no request pays for compressing an asset. vite.config.ts runs this
// after every `vite build`; `npx tsx scripts/precompress.ts DIR` runs it on a folder by hand.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The files that are text underneath (scripts, styles, pictures drawn as SVG, data); images and fonts are already
 * compressed. index.html is left out: the server fills it in for every answer (its style nonce) and compresses that. */
export const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|xml|webmanifest)$/i;
/** Below this a file is sent as it is: a compressed copy would save about what the headers that announce it cost. */
export const MIN_BYTES = 256;

/** The files under `root` to compress, as paths relative to it: never a dot folder (Vite's manifest) or index.html. */
async function candidates(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter(
      (file) =>
        COMPRESSIBLE.test(file) &&
        file !== 'index.html' &&
        !file.split(path.sep).some((part) => part.startsWith('.')),
    );
}

export interface Precompressed {
  /** The file, relative to the folder. */
  file: string;
  bytes: number;
  /** The sizes of `file.br` and `file.gz`, or null when not written (too small, or no smaller compressed). */
  br: number | null;
  gz: number | null;
}

/**
 * Writes `file.br` and `file.gz` beside every compressible file of `root` of at least MIN_BYTES, each only when it
 * is smaller than the file. Answers what it did, one line a file: its size, and the compressed sizes (null: not
 * written).
 */
export async function precompressFolder(root: string): Promise<Precompressed[]> {
  const files = await candidates(root);
  return Promise.all(
    files.map(async (file) => {
      const full = path.join(root, file);
      const raw = await fs.readFile(full);
      if (raw.length < MIN_BYTES) return { file, bytes: raw.length, br: null, gz: null };
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
        gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      const keep = async (data: Buffer, extension: string) => {
        if (data.length >= raw.length) return null;
        await fs.writeFile(`${full}${extension}`, data);
        return data.length;
      };
      return { file, bytes: raw.length, br: await keep(br, '.br'), gz: await keep(gz, '.gz') };
    }),
  );
}

/** The Vite plugin: compresses the output folder once the build has written it (public files included). */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'dbui-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressFolder(outDir);
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2];
  if (!root) {
    console.error('Usage: npx tsx scripts/precompress.ts FOLDER (the built web app, such as dist/web)');
    process.exit(2);
  }
  const done = await precompressFolder(path.resolve(root));
  console.log(
    `${done.filter((f) => f.br !== null || f.gz !== null).length} of ${done.length} files compressed in ${root}`,
  );
}
