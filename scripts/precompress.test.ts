import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '#server/test/temp-dir.ts';
import { MIN_BYTES, precompressFolder } from './precompress.ts';

/* The build step of decision 0055: brotli and gzip copies beside the web app's files that gain from them. */
describe('precompressFolder', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('writes name.br and name.gz beside the text files worth it, and nothing for the rest', async () => {
    const root = dir.path;
    const write = (file: string, data: string | Buffer) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), data);
    };
    const script = Array.from({ length: 300 }, (_, i) => `export const v${i} = 'value ${i}';`).join('\n');
    write('assets/app-1.js', script);
    write('assets/app-1.css', `.a{color:red}\n`.repeat(200));
    write('assets/tiny-1.js', 'export const a = 1;');
    write('favicon.svg', `<svg xmlns="http://www.w3.org/2000/svg">${'<path d="M0 0h1"/>'.repeat(100)}</svg>`);
    // Already compressed: a copy would not be smaller.
    write('assets/picture.png', zlib.gzipSync(Buffer.from(script)));
    write('assets/noise.js', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)));
    // The server fills index.html in for every answer; Vite's manifest is never served.
    write('index.html', `<!doctype html>${'<p>x</p>'.repeat(400)}`);
    write('.vite/manifest.json', JSON.stringify({ a: 'b'.repeat(4000) }));

    const done = await precompressFolder(root);
    const copies = (file: string) => ['.br', '.gz'].filter((e) => fs.existsSync(path.join(root, file + e)));
    expect(copies('assets/app-1.js')).toEqual(['.br', '.gz']);
    expect(copies('assets/app-1.css')).toEqual(['.br', '.gz']);
    expect(copies('favicon.svg')).toEqual(['.br', '.gz']);
    expect(copies('assets/tiny-1.js')).toEqual([]);
    expect(copies('assets/picture.png')).toEqual([]);
    expect(copies('index.html')).toEqual([]);
    expect(copies('.vite/manifest.json')).toEqual([]);
    expect(Buffer.byteLength('export const a = 1;')).toBeLessThan(MIN_BYTES);

    // Each copy is the file, compressed; the report says so.
    const original = fs.readFileSync(path.join(root, 'assets/app-1.js'));
    expect(
      zlib.brotliDecompressSync(fs.readFileSync(path.join(root, 'assets/app-1.js.br'))).equals(original),
    ).toBe(true);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(root, 'assets/app-1.js.gz'))).equals(original)).toBe(
      true,
    );
    const line = done.find((f) => f.file === path.join('assets', 'app-1.js'));
    expect(line).toEqual({
      file: path.join('assets', 'app-1.js'),
      bytes: original.length,
      br: fs.statSync(path.join(root, 'assets/app-1.js.br')).size,
      gz: fs.statSync(path.join(root, 'assets/app-1.js.gz')).size,
    });
    // Brotli at its best beats gzip on text.
    expect(line!.br!).toBeLessThan(line!.gz!);
    // A noise file: brotli may still shave a byte off where gzip cannot; never a copy bigger than the file.
    for (const copy of copies('assets/noise.js'))
      expect(fs.statSync(path.join(root, `assets/noise.js${copy}`)).size).toBeLessThan(4096);
  });
});
