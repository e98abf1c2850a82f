import { withDefaults } from '#server/engines/capabilities.ts';

/** Where PostgreSQL differs from the defaults (engines/capabilities.ts). */
export const postgresCapabilities = withDefaults({ nullsSortLargest: true, keysFromIndex: 'index-prefix' });
