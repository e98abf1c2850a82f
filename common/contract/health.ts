import { z } from 'zod';

export const componentStatus = z.enum(['up', 'down']);

/** GET /api/health: the app store and every registered database, each up or down, and whether the app store can be
 * written (decision 0013). */
export const healthResponse = z.object({
  status: z
    .enum(['up', 'degraded', 'down'])
    .describe(
      'up when the app store and every database are up and the app store can be written; degraded when everything ' +
        'answers but the app store cannot be written (reads work; sign-in and changes do not); down otherwise',
    ),
  appStore: z.object({
    engine: z.string(),
    status: componentStatus,
    writable: z
      .boolean()
      .describe('false when a write to the app store fails (a full disk, read-only storage)'),
    error: z.string().optional().describe('What is wrong, in plain words (the details are in the log)'),
  }),
  databases: z.array(
    z.object({
      name: z.string(),
      engine: z.string(),
      status: componentStatus,
      error: z.string().optional().describe('What is wrong, in plain words (the details are in the log)'),
    }),
  ),
});
export type HealthResponse = z.infer<typeof healthResponse>;

/** GET /api/health/alive: the process answers. Nothing else is asked, so a restart is never triggered by a
 * dependency that is down (issue 18). */
export const aliveResponse = z.object({
  alive: z.literal(true),
  uptimeSeconds: z.number().describe('Seconds since this process started'),
});
export type AliveResponse = z.infer<typeof aliveResponse>;

/** GET /api/health/ready: whether this instance should get traffic: the app store answers and, when REDIS_URL is
 * set, Redis answers. A balancer polls it; the answer is reused for a second or two (issue 18). */
export const readyResponse = z.object({
  ready: z.boolean(),
  appStore: componentStatus,
  redis: z.enum(['up', 'down', 'unused']).describe('unused when REDIS_URL is not set'),
  checkedAt: z.string().describe('When the dependencies were last asked (ISO 8601)'),
});
export type ReadyResponse = z.infer<typeof readyResponse>;
