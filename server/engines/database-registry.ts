import { withTimeout, type DatabaseEngine } from './engine.ts';

/** A pool that cannot close in this time (a database that stopped answering) is left behind at shutdown. */
const CLOSE_TIMEOUT_MS = 3000;

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

  /** Closes every pool; one that fails or hangs does not keep the others open or the process alive. */
  async closeAll(): Promise<void> {
    await Promise.allSettled(
      this.all().map((engine) =>
        withTimeout(engine.close(), CLOSE_TIMEOUT_MS, `${engine.name} did not close`),
      ),
    );
  }
}
