import { z } from 'zod';

export const componentStatus = z.enum(['up', 'down']);

/** GET /api/health: the app store and every registered database, each up or down. */
export const healthResponse = z.object({
  status: componentStatus.describe('up when the app store and every database are up'),
  appStore: z.object({ engine: z.string(), status: componentStatus, error: z.string().optional() }),
  databases: z.array(
    z.object({
      name: z.string(),
      engine: z.string(),
      status: componentStatus,
      error: z.string().optional(),
    }),
  ),
});
export type HealthResponse = z.infer<typeof healthResponse>;
