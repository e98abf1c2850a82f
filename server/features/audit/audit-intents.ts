import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { row as rowSchema, type Row, type Table } from '#common/contract/sql.ts';
import { tablePath } from '#common/links.ts';
import { storeMessages } from '#common/messages.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { AppStore } from '#server/store/app-store.ts';
import {
  confirmAudit,
  dropAuditIntent,
  findAuditIntent,
  laterDataChanges,
  markAuditUncertain,
  openAuditIntents,
  setAuditDetail,
  writeAudit,
  writeAuditIntent,
  type AuditEntry,
  type AuditIntent,
} from '#server/store/audit.ts';
import { isUnwritable } from '#server/store/unwritable.ts';
import { changedColumns, isShortenedBinary, type DataChange } from './row-audit.ts';

/*
 * Audit entries a crash cannot lose (docs/decisions/0022-audit-intents.md). A row lives in the browsed database and
 * its entry in the app store: no transaction spans both. So the entry is written as an intent ('pending') inside the
 * write's transaction, after the row is written and before it commits (the engine's beforeCommit), and set 'done'
 * once the write answered. A change therefore never commits without its entry; an entry can outlive a change that
 * did not commit (the process died between the two), and such intents are resolved by reading the row:
 *
 *   the row is as the change left it, and not as it found it       → done (the change happened)
 *   the row is as the change found it, and not as it left it       → dropped (it did not happen)
 *   neither (changed again since, by someone or something else)   → the next done entry on the same row decides:
 *                                                                     it started from the change's result → done,
 *                                                                     from the row before the change → dropped
 *   no such entry                                                   → 'uncertain', kept, with the reason
 *
 * For an insert "as it found it" is no row, for a delete "as it left it" is no row. The row is read under the row
 * lock writes take, so a write of another instance still in flight ends first. A database that cannot be read now
 * leaves the intent open: the resolver tries again every minute, and never delays the start.
 */

/** How often open intents are tried again. */
export const INTENT_RETRY_INTERVAL_MS = 60_000;
/** Intents younger than this are their write's own business (it confirms them within moments). */
export const INTENT_GRACE_MS = 60_000;

/** What the audit feature works with (its intents, history and undo): the app store, where entries live; the
 * registered databases, where the changed rows live; and where to log what the caller is not told. A feature's own
 * context (features/sql's SqlContext) is one. */
export interface AuditContext {
  store: AppStore;
  databases: DatabaseRegistry;
  log?: FastifyBaseLogger;
}

/** The answer to a change that was not made because its audit entry could not be written. */
export const AUDIT_UNWRITABLE =
  'The change was not saved because the audit trail cannot be written right now. Please try again later.';

/** How a write hands its entry over: called from the engine's beforeCommit, in the write's transaction. */
export type RecordChange = (entry: AuditEntry) => Promise<void>;

/**
 * Runs one audited write. `write` makes the change in one engine call and calls `record` from its beforeCommit with
 * the entry that describes it; the entry is written as an intent then (or, with `intentId`, the detail of an intent
 * written before: an undo's claim), and confirmed once `write` answered. When `write` fails after an intent exists,
 * the intent is resolved at once by reading the row (a failed commit cannot be told from a lost answer); when even
 * that fails, the resolver's next pass does it.
 */
export async function auditedWrite<T>(
  context: AuditContext,
  write: (record: RecordChange) => Promise<T>,
  options: { intentId?: number } = {},
): Promise<T> {
  const { store } = context;
  let id = options.intentId ?? null;
  let recorded: AuditEntry | null = null;
  const record: RecordChange = async (entry) => {
    try {
      if (id === null) id = await writeAuditIntent(store.db, entry);
      else await setAuditDetail(store.db, id, entry.detail ?? {});
    } catch (error) {
      // The write is rolled back. Said as what it is: the engine would read a store error as its own database's.
      context.log?.error({ err: error }, 'audit entry not written: the change is not made');
      throw new ApiError(503, isUnwritable(error) ? storeMessages.cannotSave : AUDIT_UNWRITABLE);
    }
    recorded = entry;
  };
  let result: T;
  try {
    result = await write(record);
  } catch (error) {
    if (id !== null) {
      const intent = id;
      await resolveAuditIntentNow(context, intent).catch((failure: unknown) =>
        context.log?.warn({ err: failure, entry: intent }, 'audit intent left open after a failed write'),
      );
    }
    throw error;
  }
  const entry: AuditEntry | null = recorded;
  if (id === null || entry === null) return result;
  try {
    // Gone only when a resolution running elsewhere dropped it before this commit became visible: written again.
    if (!(await confirmAudit(store.db, id))) await writeAudit(store.db, entry);
  } catch (error) {
    // The change is made and its intent is in the trail: the resolver's next pass confirms it.
    context.log?.warn({ err: error, entry: id }, 'audit intent not confirmed yet');
  }
  return result;
}

/** What resolution made of an intent. */
export type IntentOutcome = 'done' | 'dropped' | 'uncertain' | 'open';

const changeDetail = z.looseObject({
  change: z.enum(['insert', 'update', 'delete']).optional(),
  key: rowSchema.nullish(),
  before: rowSchema.nullish(),
  after: rowSchema.nullish(),
});

function parsedDetail(detail: string | null): z.infer<typeof changeDetail> | null {
  if (detail === null) return null;
  try {
    const parsed = changeDetail.safeParse(JSON.parse(detail));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function changeOf(action: string, detail: z.infer<typeof changeDetail> | null): DataChange | null {
  if (action === 'data.insert') return 'insert';
  if (action === 'data.update') return 'update';
  if (action === 'data.delete') return 'delete';
  if (action === 'data.undo') return detail?.change ?? null;
  return null;
}

/** Whether a row (or its absence) is the audited state `expected` (or its absence). */
function isState(table: Table, row: Row | null, expected: Row | null): boolean {
  if (row === null || expected === null) return row === expected;
  return changedColumns(table, row, expected).length === 0;
}

const sameKey = (a: Row | null | undefined, b: Row | null | undefined) =>
  !!a && !!b && JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/** The verdict on a change from the state of its row: what it is now, or where the next change started from. */
function verdict(
  table: Table,
  state: Row | null,
  withChange: Row | null,
  withoutChange: Row | null,
): 'done' | 'dropped' | null {
  const applied = isState(table, state, withChange);
  const notApplied = isState(table, state, withoutChange);
  if (applied) return 'done'; // also an update that changed nothing: it happened, as the write said
  if (notApplied) return 'dropped';
  return null;
}

/** The engine and catalog entry of a data change's target, the table whose path it is; null when its database is
 * not registered (any more). Throws when the database cannot be read. */
async function tableOfTarget(
  databases: DatabaseRegistry,
  target: string,
): Promise<{ engine: DatabaseEngine; table: Table | null } | null> {
  // Database names are letters, digits, _ and - (config.ts): their path segment is the name itself.
  const engine = databases.all().find((e) => target.startsWith(`/db/${e.name}/`));
  if (!engine) return null;
  const tables = await engine.catalog();
  const table = tables.find((t) => tablePath(engine.name, t.schema, t.name) === target) ?? null;
  return { engine, table };
}

/** Resolves one open intent (see the rules above); 'open' when it must wait (its database cannot be read now). */
export async function resolveAuditIntent(context: AuditContext, intent: AuditIntent): Promise<IntentOutcome> {
  const { store } = context;
  const detail = parsedDetail(intent.detail);
  const change = changeOf(intent.action, detail);
  // An undo claimed but never recorded: its write did not reach its commit.
  if (intent.action === 'data.undo' && change === null) {
    await dropAuditIntent(store.db, intent.id);
    return 'dropped';
  }
  const uncertain = async (reason: string) => {
    await markAuditUncertain(store.db, intent.id, { ...(detail ?? {}), unresolved: reason });
    return 'uncertain' as const;
  };
  if (change === null || detail === null || intent.target === null)
    return uncertain('The entry does not record the change, so it cannot be checked against the row.');

  const found = await tableOfTarget(context.databases, intent.target);
  if (!found) return 'open';
  const { engine, table } = found;
  if (!table)
    return uncertain('The table no longer exists, so the row cannot tell whether the change was made.');
  const key = detail.key ?? null;
  if (!key || Object.keys(key).length === 0 || Object.values(key).some((v) => v === null))
    return uncertain('The table has no key, so the row cannot be found to tell whether the change was made.');
  if (Object.values(key).some(isShortenedBinary))
    return uncertain(
      'The row’s key is binary data the audit keeps only as a digest, so the row cannot be read.',
    );

  const withChange = change === 'delete' ? null : (detail.after ?? null);
  const withoutChange = change === 'insert' ? null : (detail.before ?? null);
  const current = await engine.readRow(table, key);
  let outcome = verdict(table, current, withChange, withoutChange);
  // A key the database numbered (identity) or the insert made up (guid) can only be that insert's row.
  if (
    outcome === null &&
    change === 'insert' &&
    current !== null &&
    (table.identityColumn || table.guidColumn)
  )
    outcome = 'done';
  if (outcome === null) {
    // Changed again since: where the next recorded change of the same row started tells which state came first.
    const next = (await laterDataChanges(store.db, intent.target, intent.id))
      .map((entry) => ({ entry, detail: parsedDetail(entry.detail) }))
      .find(({ detail: later }) => sameKey(later?.key, key));
    if (next) {
      const nextChange = changeOf(next.entry.action, next.detail);
      const startedFrom = nextChange === 'insert' ? null : (next.detail?.before ?? null);
      if (nextChange !== null) outcome = verdict(table, startedFrom, withChange, withoutChange);
    }
  }
  if (outcome === 'done') {
    await confirmAudit(store.db, intent.id);
    return 'done';
  }
  if (outcome === 'dropped') {
    await dropAuditIntent(store.db, intent.id);
    return 'dropped';
  }
  return uncertain(
    'The row has changed since in a way that shows neither this change nor its absence, and no later entry tells ' +
      'which came first.',
  );
}

/** Resolves one intent by id now, if it is still open (a write that failed after recording it). */
async function resolveAuditIntentNow(context: AuditContext, id: number): Promise<IntentOutcome | null> {
  const intent = await findAuditIntent(context.store.db, id);
  return intent ? resolveAuditIntent(context, intent) : null;
}

/** Resolves the intents left open before `before`; answers how many went each way. */
export async function resolveOpenIntents(
  context: AuditContext,
  before: Date,
): Promise<Record<IntentOutcome, number>> {
  const counts: Record<IntentOutcome, number> = { done: 0, dropped: 0, uncertain: 0, open: 0 };
  let afterId = 0;
  for (;;) {
    const batch = await openAuditIntents(context.store.db, before.toISOString(), afterId);
    for (const intent of batch) {
      afterId = intent.id;
      try {
        counts[await resolveAuditIntent(context, intent)] += 1;
      } catch (error) {
        counts.open += 1;
        context.log?.debug(
          { err: error, entry: intent.id },
          'audit intent left open: its row cannot be read now',
        );
      }
    }
    if (batch.length === 0) return counts;
  }
}

/** The resolution of open intents: once at start, then every minute, in the background. */
export interface AuditIntentResolver {
  /** Resolves the intents open before `before` now (one pass at a time). */
  pass(before: Date): Promise<Record<IntentOutcome, number>>;
  /** Starts the pass over the intents a previous process left (not awaited: the start is not delayed by it) and
   * the retry timer (unref'd). */
  start(): void;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

export function auditIntentResolver(context: AuditContext & { log: FastifyBaseLogger }): AuditIntentResolver {
  // Intents written before this moment belong to an earlier process (or to another instance, whose writes in flight
  // the locking read waits for).
  const createdAt = new Date();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<Record<IntentOutcome, number>> | null = null;

  const passAndLog = (before: Date) =>
    resolver
      .pass(before)
      .then((counts) => {
        const resolved = counts.done + counts.dropped + counts.uncertain;
        if (resolved > 0) context.log.info(counts, 'audit intents resolved');
        if (counts.open > 0)
          context.log.warn(
            { open: counts.open },
            'audit intents left open: their database cannot be read now; trying again in a minute',
          );
      })
      .catch((error: unknown) => context.log.error({ err: error }, 'audit intents could not be resolved'));

  const resolver: AuditIntentResolver = {
    pass(before) {
      running ??= resolveOpenIntents(context, before).finally(() => {
        running = null;
      });
      return running;
    },
    start() {
      void passAndLog(createdAt);
      if (timer) return;
      timer = setInterval(
        () => void passAndLog(new Date(Date.now() - INTENT_GRACE_MS)),
        INTENT_RETRY_INTERVAL_MS,
      );
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
  return resolver;
}
