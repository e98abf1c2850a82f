import { describe, expect, it } from 'vitest';
import { defaultCapabilities, withDefaults } from './capabilities.ts';
import { engineCapabilities } from './engine-capabilities.ts';
import type { EngineKind } from './engine.ts';

describe('engine capabilities', () => {
  it('has defaults for every flag, the common case', () => {
    expect(defaultCapabilities).toEqual({
      offsetNeedsOrderBy: false,
      capsRowsWithTop: false,
      nullsSortLargest: false,
      keysFromIndex: 'none',
      anyValueInAnyColumn: false,
    });
  });

  it('gives every engine the defaults with what it declares over them', () => {
    const table = Object.fromEntries(
      (['sqlite', 'postgres', 'mysql', 'mssql'] as EngineKind[]).map((kind) => [
        kind,
        engineCapabilities(kind),
      ]),
    );
    expect(table).toEqual({
      sqlite: { ...defaultCapabilities, anyValueInAnyColumn: true },
      postgres: { ...defaultCapabilities, nullsSortLargest: true, keysFromIndex: 'index-prefix' },
      mysql: { ...defaultCapabilities, keysFromIndex: 'clustered-key' },
      mssql: {
        ...defaultCapabilities,
        offsetNeedsOrderBy: true,
        capsRowsWithTop: true,
        keysFromIndex: 'clustered-key',
      },
    });
  });

  it('fills a flag an engine leaves out from the defaults, and cannot be changed afterwards', () => {
    const declared = withDefaults({ nullsSortLargest: true });
    expect(declared).toEqual({ ...defaultCapabilities, nullsSortLargest: true });
    expect(Object.isFrozen(declared)).toBe(true);
    expect(Object.isFrozen(engineCapabilities('postgres'))).toBe(true);
  });
});
