import { z } from 'zod/v4';

/*
 * Zod compiles object parsers with `new Function` when it may, and probes for that when the first object schema is
 * built. The server's Content-Security-Policy forbids eval, so the probe alone is reported as a violation: the web app
 * runs Zod without eval. vite.config.ts makes this module what `zod` means in the web app, so whichever chunk builds a
 * schema first has already run this setting, and the home page need not load Zod at all (decision 0033).
 */
z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
