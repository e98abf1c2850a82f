import type { AppStore } from '#server/store/app-store.ts';
import { accessOfUser, type UserAccess } from '#server/store/roles.ts';

/*
 * Each user's rights (administrator or not, links, write permissions), kept between calls so a call reads none of
 * them from the app store (docs/decisions/0034-request-path.md). An entry is used only while the rights' version it
 * was read under is the one the call's own session read found (findLiveSession reads it in the same query), and
 * every change of rights writes a new version (markAccessChanged). So a change made through any instance sharing the
 * app store counts at the next call on every instance, with or without Redis, and nothing has to be told to drop.
 */

/** Entries kept at most; past it the cache starts again empty (users then read their rights once more). */
const MAX_ENTRIES = 10_000;

interface Entry {
  version: string;
  access: UserAccess;
}

/** A cache of users' rights for one app instance. */
export interface AccessCache {
  /** The user's rights as of `version`: from memory when read under that version, else from the app store. */
  of(userId: number, version: string): UserAccess | Promise<UserAccess>;
}

/** Builds the cache of one app instance over its app store. */
export function accessCache(store: AppStore): AccessCache {
  const entries = new Map<number, Entry>();
  // Calls arriving together for a user whose entry is missing share one read.
  const reading = new Map<number, { version: string; access: Promise<UserAccess> }>();
  return {
    of(userId, version) {
      const entry = entries.get(userId);
      if (entry?.version === version) return entry.access;
      const pending = reading.get(userId);
      if (pending?.version === version) return pending.access;
      const access = accessOfUser(store.db, userId).then(
        (read) => {
          if (reading.get(userId)?.access === access) reading.delete(userId);
          if (entries.size >= MAX_ENTRIES) entries.clear();
          // A read that finishes after one under a later version replaces it: the next call then reads again, never
          // uses rights older than the version it found.
          entries.set(userId, { version, access: read });
          return read;
        },
        (error: unknown) => {
          if (reading.get(userId)?.access === access) reading.delete(userId);
          throw error;
        },
      );
      reading.set(userId, { version, access });
      return access;
    },
  };
}
