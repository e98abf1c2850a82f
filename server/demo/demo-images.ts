// Small, real PNG pictures for the demo database's IMAGE columns, so the image picker, thumbnails and binary
// exports have genuine images to show. Each picture is a gradient background, a shape and a one- or two-character
// label, all chosen from a seed: the same seed always gives the same bytes.
import { PNG } from 'pngjs';
import { DemoRandom } from './demo-random.ts';

/** What to draw: the picture's side in pixels, the seed that picks colours and shape, and a short A-Z/0-9 label. */
export interface DemoImageRequest {
  size: number;
  seed: number;
  label: string;
}

type Rgb = readonly [number, number, number];
type Shape = 'circle' | 'square' | 'diamond' | 'ring' | 'triangle' | 'hexagon';

const SHAPES: readonly Shape[] = ['circle', 'square', 'diamond', 'ring', 'triangle', 'hexagon'];

/** A 3x5 bitmap font: five rows of three cells per glyph, '#' is ink. */
const GLYPHS: Readonly<Record<string, readonly string[]>> = {
  A: ['.#.', '#.#', '###', '#.#', '#.#'],
  B: ['##.', '#.#', '##.', '#.#', '##.'],
  C: ['.##', '#..', '#..', '#..', '.##'],
  D: ['##.', '#.#', '#.#', '#.#', '##.'],
  E: ['###', '#..', '##.', '#..', '###'],
  F: ['###', '#..', '##.', '#..', '#..'],
  G: ['.##', '#..', '#.#', '#.#', '.##'],
  H: ['#.#', '#.#', '###', '#.#', '#.#'],
  I: ['###', '.#.', '.#.', '.#.', '###'],
  J: ['..#', '..#', '..#', '#.#', '.#.'],
  K: ['#.#', '#.#', '##.', '#.#', '#.#'],
  L: ['#..', '#..', '#..', '#..', '###'],
  M: ['#.#', '###', '###', '#.#', '#.#'],
  N: ['##.', '#.#', '#.#', '#.#', '#.#'],
  O: ['.#.', '#.#', '#.#', '#.#', '.#.'],
  P: ['##.', '#.#', '##.', '#..', '#..'],
  Q: ['.#.', '#.#', '#.#', '##.', '.##'],
  R: ['##.', '#.#', '##.', '#.#', '#.#'],
  S: ['.##', '#..', '.#.', '..#', '##.'],
  T: ['###', '.#.', '.#.', '.#.', '.#.'],
  U: ['#.#', '#.#', '#.#', '#.#', '###'],
  V: ['#.#', '#.#', '#.#', '#.#', '.#.'],
  W: ['#.#', '#.#', '###', '###', '#.#'],
  X: ['#.#', '#.#', '.#.', '#.#', '#.#'],
  Y: ['#.#', '#.#', '.#.', '.#.', '.#.'],
  Z: ['###', '..#', '.#.', '#..', '###'],
  '0': ['###', '#.#', '#.#', '#.#', '###'],
  '1': ['.#.', '##.', '.#.', '.#.', '###'],
  '2': ['##.', '..#', '.#.', '#..', '###'],
  '3': ['##.', '..#', '.#.', '..#', '##.'],
  '4': ['#.#', '#.#', '###', '..#', '..#'],
  '5': ['###', '#..', '##.', '..#', '##.'],
  '6': ['.##', '#..', '###', '#.#', '###'],
  '7': ['###', '..#', '.#.', '.#.', '.#.'],
  '8': ['###', '#.#', '###', '#.#', '###'],
  '9': ['###', '#.#', '###', '..#', '##.'],
};

/** Draws one picture and returns its PNG bytes. */
export function demoImage(request: DemoImageRequest): Buffer {
  const random = new DemoRandom(request.seed);
  const hue = random.next() * 360;
  const shape = random.pick(SHAPES);
  const backgroundTop = hslToRgb(hue, 0.55, 0.82);
  const backgroundBottom = hslToRgb(hue + 20, 0.5, 0.64);
  const ink = hslToRgb(hue + 150 + random.next() * 60, 0.65, 0.42);
  // A ring's middle is background, so its label takes the ink colour; elsewhere the label contrasts with the ink.
  const labelColor: Rgb = shape === 'ring' ? ink : luminance(ink) > 0.55 ? [30, 30, 30] : [255, 255, 255];
  const labelMask = labelCells(request.label.toUpperCase(), request.size);

  const png = new PNG({ width: request.size, height: request.size });
  for (let y = 0; y < request.size; y++) {
    const background = mix(backgroundTop, backgroundBottom, y / (request.size - 1));
    for (let x = 0; x < request.size; x++) {
      const color =
        labelMask[y * request.size + x] === 1
          ? labelColor
          : mix(background, ink, shapeCoverage(shape, x, y, request.size));
      const offset = (y * request.size + x) * 4;
      png.data[offset] = color[0];
      png.data[offset + 1] = color[1];
      png.data[offset + 2] = color[2];
      png.data[offset + 3] = 255;
    }
  }
  // A fixed Paeth filter: the smallest output here, and it skips pngjs's per-row filter trials. RGBA (pngjs's
  // default) encodes faster than RGB and costs only a few bytes, the alpha being constant.
  return PNG.sync.write(png, { filterType: 4 });
}

/** The share (0..1) of pixel (x, y) covered by the shape, from its signed distance: one pixel of smooth edge. */
function shapeCoverage(shape: Shape, x: number, y: number, size: number): number {
  const scale = size * 0.4; // pixels per unit: the shape's "radius" is 1 unit
  const u = (x + 0.5) / scale - 1.25;
  const v = (y + 0.5) / scale - 1.25;
  const distanceInPixels = signedDistance(shape, u, v) * scale;
  return Math.min(1, Math.max(0, 0.5 - distanceInPixels));
}

/** Distance (in units) from (u, v) to the shape's edge: negative inside. Polygons use the largest of their edges'
 * half-plane distances, exact near the edges, which is all the anti-aliasing needs. */
function signedDistance(shape: Shape, u: number, v: number): number {
  const au = Math.abs(u);
  const av = Math.abs(v);
  switch (shape) {
    case 'circle':
      return Math.sqrt(u * u + v * v) - 1;
    case 'square':
      return Math.max(au, av) - 0.85;
    case 'diamond':
      return (au + av - 1.1) / Math.SQRT2;
    case 'ring':
      return Math.abs(Math.sqrt(u * u + v * v) - 0.925) - 0.125;
    case 'triangle':
      return Math.max(v - 0.8, -1 - v, (au - 0.6 * (v + 1)) / 1.166);
    case 'hexagon':
      return Math.max(av - 0.87, au * 0.87 + av * 0.5 - 0.87);
  }
}

/** A mask (1 at y * size + x) of the pixels the label covers, centred, each font cell drawn as a square block. */
function labelCells(label: string, size: number): Uint8Array {
  const glyphs = [...label].map((character) => GLYPHS[character]).filter((glyph) => glyph !== undefined);
  const cells = new Uint8Array(size * size);
  if (glyphs.length === 0) return cells;
  const unitsWide = glyphs.length * 4 - 1;
  const scale = Math.max(1, Math.floor((size * 0.5) / Math.max(unitsWide, 5)));
  const left = Math.floor((size - unitsWide * scale) / 2);
  const top = Math.floor((size - 5 * scale) / 2);
  glyphs.forEach((glyph, glyphIndex) => {
    glyph.forEach((cellsInRow, row) => {
      for (let cell = 0; cell < cellsInRow.length; cell++) {
        if (cellsInRow[cell] !== '#') continue;
        const column = glyphIndex * 4 + cell;
        for (let dy = 0; dy < scale; dy++) {
          for (let dx = 0; dx < scale; dx++) {
            cells[(top + row * scale + dy) * size + left + column * scale + dx] = 1;
          }
        }
      }
    });
  });
  return cells;
}

function mix(from: Rgb, to: Rgb, amount: number): Rgb {
  return [
    Math.round(from[0] + (to[0] - from[0]) * amount),
    Math.round(from[1] + (to[1] - from[1]) * amount),
    Math.round(from[2] + (to[2] - from[2]) * amount),
  ];
}

function luminance(color: Rgb): number {
  return (0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2]) / 255;
}

function hslToRgb(hueDegrees: number, saturation: number, lightness: number): Rgb {
  const hue = (((hueDegrees % 360) + 360) % 360) / 360;
  const q = lightness < 0.5 ? lightness * (1 + saturation) : lightness + saturation - lightness * saturation;
  const p = 2 * lightness - q;
  const channel = (t: number): number => {
    const wrapped = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (wrapped < 1 / 6) return p + (q - p) * 6 * wrapped;
    if (wrapped < 1 / 2) return q;
    if (wrapped < 2 / 3) return p + (q - p) * (2 / 3 - wrapped) * 6;
    return p;
  };
  return [
    Math.round(channel(hue + 1 / 3) * 255),
    Math.round(channel(hue) * 255),
    Math.round(channel(hue - 1 / 3) * 255),
  ];
}
