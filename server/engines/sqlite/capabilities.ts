import { withDefaults } from '#server/engines/capabilities.ts';

/** Where SQLite differs from the defaults (engines/capabilities.ts). */
export const sqliteCapabilities = withDefaults({ anyValueInAnyColumn: true });
