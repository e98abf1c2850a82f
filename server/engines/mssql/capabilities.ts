import { withDefaults } from '#server/engines/capabilities.ts';

/** Where SQL Server differs from the defaults (engines/capabilities.ts). */
export const mssqlCapabilities = withDefaults({
  offsetNeedsOrderBy: true,
  capsRowsWithTop: true,
  keysFromIndex: 'clustered-key',
});
