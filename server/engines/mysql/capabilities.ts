import { withDefaults } from '#server/engines/capabilities.ts';

/** Where MariaDB/MySQL differs from the defaults (engines/capabilities.ts). */
export const mysqlCapabilities = withDefaults({ keysFromIndex: 'clustered-key' });
