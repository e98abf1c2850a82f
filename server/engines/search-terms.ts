import { sql } from 'kysely';
import type { Column, Filter, Table } from '#common/contract/sql.ts';
import type { EngineAdapter, SqlFragment } from './adapter.ts';
import { badInput } from './engine-error.ts';
import { checkValue } from './wire-values.ts';

/*
 * The match rule per type group (docs/decisions/0004-engine-layer.md), each answerable from an index on the column:
 * Text starts with the term (case-insensitive only where the column's collation is); Number, guid, bit and Time
 * equal the term; Date equals a full date-time, and a bare date (YYYY-MM-DD) matches that whole day. Binary,
 * image and Other columns cannot be searched. Terms are trimmed; an empty term is no filter.
 */

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filter as SQL predicates, after checking every column and term; throws a 400 saying what to fix. */
export function searchPredicates(adapter: EngineAdapter, table: Table, filter: Filter): SqlFragment[] {
  const predicates: SqlFragment[] = [];
  for (const [name, raw] of Object.entries(filter)) {
    const term = raw === null ? '' : String(raw).trim();
    if (term === '') continue;
    const column = table.columns.find((c) => c.name === name);
    if (!column) throw badInput(`${name} is not a column of ${table.name}.`);
    if (!column.isIndexed) {
      const searchable = table.columns.filter((c) => c.isIndexed).map((c) => c.name);
      throw badInput(
        `${name} is not indexed, so it cannot be searched. Search by ${searchable.join(', ') || 'no column of this table'}.`,
      );
    }
    predicates.push(predicateFor(adapter, column, term));
  }
  return predicates;
}

function predicateFor(adapter: EngineAdapter, column: Column, term: string): SqlFragment {
  const ref = sql.id(column.name);
  switch (column.typeGroup) {
    case 'Text':
      return adapter.textStartsWith(ref, term, column);
    case 'Date':
      if (BARE_DATE.test(term) && column.type.toLowerCase() !== 'date') {
        checkValue(column, term);
        const next = nextDay(term);
        return sql`(${ref} >= ${adapter.encodeValue(column, term)} and ${ref} < ${adapter.encodeValue(column, next)})`;
      }
      return equals(adapter, column, term);
    case 'Number':
    case 'Time':
    case 'guid':
    case 'bit':
      return equals(adapter, column, term);
    default:
      throw badInput(
        `${column.name} holds ${column.typeGroup === 'Other' ? column.type : 'binary data'} and cannot be searched.`,
      );
  }
}

function equals(adapter: EngineAdapter, column: Column, term: string): SqlFragment {
  const value = checkValue(column, term);
  if (value === null) throw badInput(`${column.name}: the search term is empty.`);
  return sql`${sql.id(column.name)} = ${adapter.encodeValue(column, value)}`;
}

function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) throw badInput(`"${date}" is not a date.`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}
