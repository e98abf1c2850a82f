import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { REFERENCES_COUNT_CAP } from '#common/contract/relations.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { referencingColumnsIndexed } from '#server/engines/referencing-rows.ts';
import { chosen, openSuiteEngine } from '#server/test/engine-suite.ts';

/*
 * Referenced by on Chinook (issue 37, decision 0065): the reverse foreign keys of Customer, Track and Employee (its
 * self-reference included), their ON DELETE rules, and the engine's capped count against a plain count(*).
 */
describe.each(chosen)('references on the %s engine', (kind) => {
  let engine: DatabaseEngine;
  let schema: string;
  const { n } = openSuiteEngine(kind, (opened) => ({ engine, schema } = opened));

  /** Every foreign key of the catalog that points at `pascal`, as "Table.Column". */
  async function pointingAt(pascal: string) {
    const catalog = await engine.catalog();
    return catalog.flatMap((table) =>
      table.foreignKeys
        .filter((fk) => fk.referencedSchema === schema && fk.referencedTable === n(pascal))
        .map((fk) => ({ table, fk })),
    );
  }

  it('finds every foreign key pointing at a table, with its ON DELETE rule', async () => {
    const names = async (pascal: string) =>
      (await pointingAt(pascal)).map(({ table, fk }) => `${table.name}.${fk.columns.join('+')}`).sort();
    expect(await names('Customer')).toEqual([`${n('Invoice')}.${n('CustomerId')}`]);
    expect(await names('Track')).toEqual(
      [`${n('InvoiceLine')}.${n('TrackId')}`, `${n('PlaylistTrack')}.${n('TrackId')}`].sort(),
    );
    expect(await names('Employee')).toEqual(
      [`${n('Customer')}.${n('SupportRepId')}`, `${n('Employee')}.${n('ReportsTo')}`].sort(),
    );
    // Chinook's scripts say ON DELETE NO ACTION (the MySQL one in words, the others by default).
    for (const { fk } of await pointingAt('Employee')) expect(fk.onDelete).toBe('no action');
  });

  it('counts the referencing rows of a key as count(*) does, where the columns are indexed', async () => {
    for (const [pascal, key] of [
      ['Customer', 1],
      ['Track', 1],
      ['Employee', 2],
      ['Employee', 3],
    ] as const) {
      for (const { table, fk } of await pointingAt(pascal)) {
        const column = fk.columns[0] ?? '';
        const oracle = await sql<{
          n: number | string;
        }>`select count(*) as n from ${sql.id(table.schema, table.name)} where ${sql.id(column)} = ${key}`.execute(
          engine.db,
        );
        const expected = Number(oracle.rows[0]?.n);
        const counted = await engine.countReferencing(
          table,
          fk.columns,
          { [column]: key },
          REFERENCES_COUNT_CAP,
        );
        expect(counted, `${table.name}.${column} = ${key}`).toBe(expected);
        if (table.name === n('Invoice')) expect(referencingColumnsIndexed(table, fk.columns)).toBe(true);
      }
    }
  });
});
