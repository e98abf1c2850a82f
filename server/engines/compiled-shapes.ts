import { CompiledQuery } from 'kysely';
import type { Table } from '#common/contract/sql.ts';
import type { EngineAdapter, SqlFragment } from './adapter.ts';

/*
 * Statements compiled once per catalog table and shape, then run with each call's values in their places (issue 17,
 * decision 0034). Building a page's statement (Kysely's nodes, each frozen) and compiling it took about 5 µs of a
 * first page's ~250 µs of server time, every call, for SQL that only depends on the table, the order and the page
 * size. A refreshed catalog makes new table objects, so its statements are compiled again.
 */

/** Where a value goes in a statement compiled once. */
class Place {
  constructor(readonly index: number) {}
}

/** Shapes kept per table (an order, a direction, a page size: a person's browsing makes a handful); past this the
 * table's shapes start again. */
const SHAPES_PER_TABLE = 256;

const compiledByAdapter = new WeakMap<EngineAdapter, WeakMap<Table, Map<string, CompiledQuery>>>();

/**
 * The statement `build` makes, compiled once per adapter, catalog table and shape, with `values` bound in their
 * places. `build` gets a place for each value, or null for a null (a null usually changes the SQL, as `is null`
 * does), and may only bind the places, never look at them; `shape` must name everything else the SQL depends on
 * (the values' nulls are added to it here).
 */
export function compiledOnce(
  adapter: EngineAdapter,
  table: Table,
  shape: string,
  values: readonly unknown[],
  build: (places: readonly unknown[]) => SqlFragment,
): CompiledQuery<Record<string, unknown>> {
  let tables = compiledByAdapter.get(adapter);
  if (!tables) compiledByAdapter.set(adapter, (tables = new WeakMap()));
  let shapes = tables.get(table);
  if (!shapes) tables.set(table, (shapes = new Map()));
  let key = shape;
  for (const value of values) key += value === null ? '|null' : '|value';
  let compiled = shapes.get(key);
  if (!compiled) {
    compiled = build(values.map((value, i) => (value === null ? null : new Place(i)))).compile(adapter.db);
    if (shapes.size >= SHAPES_PER_TABLE) shapes.clear();
    shapes.set(key, compiled);
  }
  return CompiledQuery.raw(
    compiled.sql,
    compiled.parameters.map((parameter) =>
      parameter instanceof Place ? values[parameter.index] : parameter,
    ),
  ) as CompiledQuery<Record<string, unknown>>;
}
