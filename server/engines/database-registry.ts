import type { DatabaseEngine } from './engine.ts';

/** The databases people browse, by their registered name. */
export class DatabaseRegistry {
  private readonly engines = new Map<string, DatabaseEngine>();

  constructor(engines: DatabaseEngine[] = []) {
    for (const engine of engines) this.engines.set(engine.name, engine);
  }

  /** Every registered database, in registration order. */
  all(): DatabaseEngine[] {
    return [...this.engines.values()];
  }

  /** The database with this name, or undefined. */
  get(name: string): DatabaseEngine | undefined {
    return this.engines.get(name);
  }

  /** Closes every pool; one that fails to close does not keep the others open. */
  async closeAll(): Promise<void> {
    await Promise.allSettled(this.all().map((engine) => engine.close()));
  }
}
