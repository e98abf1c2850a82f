import type { Migration } from 'kysely';
import * as initial from './0001-initial.ts';

/** Every migration in order. Forward-only: add a new numbered file, never edit a released one. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
};
