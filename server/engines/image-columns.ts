/** Binary columns whose name says they hold pictures are shown and edited as images (docs/decisions/0004). */
export function looksLikeImageColumn(name: string): boolean {
  return /image|photo|picture|avatar|logo|thumbnail|icon/i.test(name);
}
