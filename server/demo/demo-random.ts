// A seeded pseudo-random source for the demo data: mulberry32, so every machine builds byte-for-byte the same rows.
// Math.random is never used here.

/** Deterministic random numbers and the small choices the demo seeders need. */
export class DemoRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1) (mulberry32). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with the given probability. */
  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('DemoRandom.pick needs a non-empty list');
    return item;
  }

  /** One element, chosen with the given relative weights (same length as items). */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    let roll = this.next() * total;
    for (let index = 0; index < items.length; index++) {
      roll -= weights[index] ?? 0;
      const item = items[index];
      if (roll < 0 && item !== undefined) return item;
    }
    return this.pick(items);
  }

  /** A float in [min, max) rounded to `decimals` places. */
  decimal(min: number, max: number, decimals: number): number {
    const factor = 10 ** decimals;
    return Math.round((min + this.next() * (max - min)) * factor) / factor;
  }

  /** `length` random bytes. */
  bytes(length: number): Buffer {
    const buffer = Buffer.alloc(length);
    for (let index = 0; index < length; index++) buffer[index] = Math.floor(this.next() * 256);
    return buffer;
  }

  /** A random 64-bit signed integer (full range, so most values lie beyond 2^53). */
  int64(): bigint {
    const high = BigInt(Math.floor(this.next() * 4294967296));
    const low = BigInt(Math.floor(this.next() * 4294967296));
    return BigInt.asIntN(64, (high << 32n) | low);
  }

  /** A version-4 UUID in its lowercase text form, drawn from this source. */
  guid(): string {
    const bytes = this.bytes(16);
    bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
    bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
