import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineGuard } from './call-deadline.ts';
import { DatabaseUnavailable } from './engine-error.ts';

// The clock is Vitest's: time moves only when a test says so, so the order of deadlines and answers is the same on
// a loaded machine as on an idle one (a real 20 ms sleep once lasted longer than an 80 ms deadline under load).
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = <T>() => new Promise<T>(() => undefined);
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
/** A promise's outcome, readable before it settles (`done` false until then). */
function watched<T>(promise: Promise<T>) {
  const state: { done: boolean; value?: T | unknown } = { done: false };
  promise.then(
    (value) => Object.assign(state, { done: true, value }),
    (error: unknown) => Object.assign(state, { done: true, value: error }),
  );
  return state;
}

describe('DeadlineGuard', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits for a connection until the deadline, and gives back one that comes later', async () => {
    const guard = new DeadlineGuard('crm', 100);
    const givenBack: string[] = [];
    await expect(
      guard.acquire(
        async () => 'quick',
        (c) => givenBack.push(c),
      ),
    ).resolves.toBe('quick');
    const late = watched(
      guard.acquire(
        () => sleep(200).then(() => 'late'),
        (c) => givenBack.push(c),
      ),
    );
    await advance(99);
    expect(late.done).toBe(false);
    await advance(1);
    expect(late.value).toMatchObject({
      message: 'The database crm is not answering right now; try again in a moment.',
    });
    expect(givenBack).toEqual([]);
    await advance(100);
    expect(givenBack).toEqual(['late']);
  });

  it('says busy when the database answered others during the wait, not answering when nothing came back', async () => {
    const guard = new DeadlineGuard('crm', 80);
    const silent = guard.acquire(never, () => undefined).catch((error: unknown) => error);
    const busy = (async () => {
      const waiting = guard.acquire(never, () => undefined).catch((error: unknown) => error);
      await sleep(20);
      guard.answered();
      return waiting;
    })();
    const both = Promise.all([silent, busy]);
    await advance(80);
    const [first, second] = await both;
    // The first call began before the answer too: an answer during its wait makes it busy as well.
    expect(first).toBeInstanceOf(DatabaseUnavailable);
    expect(second).toMatchObject({ why: 'busy', statusCode: 503 });
    const later = guard.acquire(never, () => undefined).catch((error: unknown) => error);
    await advance(80);
    expect(await later).toMatchObject({
      why: 'not answering',
      message: 'The database crm is not answering right now; try again in a moment.',
    });
  });

  it('fires each deadline of many calls in flight once, whichever of them ended first', async () => {
    const guard = new DeadlineGuard('crm', 1000);
    const discarded: string[] = [];
    const call = (name: string, budgetMs: number, answersAfterMs: number | null) =>
      guard
        .run(
          () => (answersAfterMs === null ? never<string>() : sleep(answersAfterMs).then(() => name)),
          () => discarded.push(name),
          () => false,
          guard.deadline(budgetMs),
        )
        .catch(() => `${name} late`);
    // Calls end in another order than they began: each ending moves the last waiter into its place (e into a's
    // place, then e ends there).
    const outcomes = Promise.all([
      call('a', 200, 10),
      call('b', 40, null),
      call('c', 200, 30),
      call('d', 90, null),
      call('e', 70, 20),
      call('f', 200, 50),
    ]);
    await advance(200);
    expect(await outcomes).toEqual(['a', 'b late', 'c', 'd late', 'e', 'f']);
    expect(discarded).toEqual(['b', 'd']);
  });

  it('discards the connection of a statement that outlives the deadline, and fails the call with the 503', async () => {
    const guard = new DeadlineGuard('crm', 60);
    const discarded: string[] = [];
    const error = guard
      .run(
        never,
        (reason) => discarded.push(reason.why),
        () => false,
      )
      .catch((e: unknown) => e);
    await advance(60);
    expect(await error).toMatchObject({ statusCode: 503, why: 'not answering' });
    expect(discarded).toEqual(['not answering']);
  });

  it('notes a result and an error the server sent as answers, a network error not', async () => {
    const guard = new DeadlineGuard('crm', 50);
    const fromServer = (e: unknown) => e === 'server';
    await guard.run(
      async () => 1,
      () => undefined,
      fromServer,
    );
    await advance(10);
    // One checkout: its statement and a later wait share the deadline taken when it began.
    let deadline = guard.deadline();
    await expect(
      guard.run(
        () => Promise.reject(new Error('reset')),
        () => undefined,
        fromServer,
        deadline,
      ),
    ).rejects.toThrow('reset');
    const silent = guard.acquire(never, () => undefined, deadline).catch((e: unknown) => e);
    await advance(50);
    expect(await silent).toMatchObject({ why: 'not answering' });
    deadline = guard.deadline();
    await expect(
      guard.run(
        () => Promise.reject('server'),
        () => undefined,
        fromServer,
        deadline,
      ),
    ).rejects.toBe('server');
    const busy = guard.acquire(never, () => undefined, deadline).catch((e: unknown) => e);
    await advance(50);
    expect(await busy).toMatchObject({ why: 'busy' });
  });

  it('gives one checkout one deadline: the wait for a connection leaves the statement only the rest', async () => {
    const guard = new DeadlineGuard('crm', 10_000);
    const deadline = guard.deadline(120);
    const outcome = watched(
      (async () => {
        await guard.acquire(
          () => sleep(80).then(() => 'connection'),
          () => undefined,
          deadline,
        );
        return guard.run(
          never,
          () => undefined,
          () => false,
          deadline,
        );
      })(),
    );
    // The connection comes at 80 ms; the statement then has the 40 ms left, not a fresh 120.
    await advance(119);
    expect(outcome.done).toBe(false);
    await advance(1);
    expect(outcome.value).toBeInstanceOf(DatabaseUnavailable);
  });

  it('refuses a statement at once when the checkout has no time left, discarding the connection', async () => {
    const guard = new DeadlineGuard('crm', 10_000);
    const discarded: string[] = [];
    const deadline = guard.deadline(10);
    await advance(30);
    await expect(
      guard.run(
        async () => 'ran',
        (reason) => discarded.push(reason.why),
        () => false,
        deadline,
      ),
    ).rejects.toBeInstanceOf(DatabaseUnavailable);
    expect(discarded).toHaveLength(1);
  });
});
