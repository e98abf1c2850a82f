import { z } from 'zod';

/*
 * Zod compiles object parsers with `new Function` when it may, and probes for that when the first object schema is
 * built. The server's Content-Security-Policy forbids eval, so the probe alone is reported as a violation: the web app
 * runs Zod without eval. Imported by main.tsx before anything that builds a schema.
 */
z.config({ jitless: true });
