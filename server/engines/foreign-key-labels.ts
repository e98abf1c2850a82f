import { sql } from 'kysely';
import { LABEL_MAX_LENGTH, type ForeignKeyLabels } from '#common/contract/labels.ts';
import type { CellValue, Column, ForeignKey, Row, Table } from '#common/contract/sql.ts';
import type { EngineAdapter } from './adapter.ts';
import { labelColumn } from './foreign-key-options.ts';
import { checkValue, type CheckedValue } from './wire-values.ts';

/*
 * The labels of the rows a page's foreign keys point at (issue 37, docs/decisions/0067-foreign-key-labels.md). One
 * statement a foreign key a page, never one a row: the distinct complete key tuples the page's rows hold, read from
 * the referenced table by `key in (…)` (one column) or `(k1 = ? and k2 = ?) or …` (a composite key: row-value IN is
 * not on every engine, and each branch is an equality on the referenced key, which its unique index answers). Values
 * are parameters checked against the referenced columns' types; identifiers come from the catalog. Only referenced
 * tables in `readable` are named or read: the caller's filter (visibleTables) is applied before this is called.
 */

/** The readable label of a referenced row: for a one-column key the foreign-key dropdown's (labelColumn), for a
 * composite key an indexed text column outside the key, else its first one; null: the key is its own label. */
export function labelColumnOf(table: Table, keys: Column[]): Column | null {
  const [first] = keys;
  if (keys.length === 1 && first) return labelColumn(table, first);
  const names = new Set(keys.map((key) => key.name));
  const text = table.columns.filter((c) => c.typeGroup === 'Text' && !names.has(c.name));
  return text.find((c) => c.isIndexed) ?? text[0] ?? null;
}

/** A label cut to LABEL_MAX_LENGTH characters (an ellipsis marks the cut). */
export function cutLabel(text: string): string {
  const chars = [...text];
  return chars.length <= LABEL_MAX_LENGTH ? text : `${chars.slice(0, LABEL_MAX_LENGTH - 1).join('')}…`;
}

/** One foreign key's part of a page: the referenced table and columns, the label column, the page's key tuples. */
export interface LabelSource {
  fk: ForeignKey;
  referenced: Table;
  keys: Column[];
  label: Column | null;
  /** The distinct complete tuples of the page, as the page holds them and as checked for the referenced columns. */
  tuples: { given: CellValue[]; checked: CheckedValue[] }[];
}

/** Text of a tuple for matching what the database answers to what the page holds. */
const tupleText = (values: readonly unknown[]) => JSON.stringify(values.map((value) => String(value)));

/** The foreign keys of `table` into readable tables, each with its page's distinct complete key tuples. A key whose
 * referenced table or columns are not in `readable`, or whose columns are binary, gets no entry. */
export function labelSources(table: Table, readable: Table[], rows: Row[]): LabelSource[] {
  const sources: LabelSource[] = [];
  for (const fk of table.foreignKeys) {
    const referenced = readable.find(
      (t) => t.schema === fk.referencedSchema && t.name === fk.referencedTable,
    );
    if (!referenced) continue;
    const keys = fk.referencedColumns.map((name) => referenced.columns.find((c) => c.name === name));
    if (keys.some((key) => !key || key.typeGroup === 'Binary' || key.typeGroup === 'image')) continue;
    const columns = keys as Column[];
    const seen = new Set<string>();
    const tuples: LabelSource['tuples'] = [];
    for (const row of rows) {
      const given = fk.columns.map((name) => row[name] ?? null);
      // A tuple with an empty column points at nothing (null never equals).
      if (given.some((value) => value === null)) continue;
      const text = tupleText(given);
      if (seen.has(text)) continue;
      seen.add(text);
      try {
        const checked = given.map((value, i) => checkValue(columns[i] as Column, value));
        if (checked.some((value) => value === null)) continue;
        tuples.push({ given, checked: checked as CheckedValue[] });
      } catch {
        // A value the referenced column cannot hold names no row there.
      }
    }
    sources.push({ fk, referenced, keys: columns, label: labelColumnOf(referenced, columns), tuples });
  }
  return sources;
}

/** The one statement of a foreign key's labels: its key columns as k0…kn and the label, for the page's tuples. */
export function labelStatement(adapter: EngineAdapter, source: LabelSource) {
  const { referenced, keys, label, tuples } = source;
  const selected = keys.map((key, i) => sql`${sql.id(key.name)} as ${sql.id(`k${i}`)}`);
  if (label) selected.push(sql`${sql.id(label.name)} as ${sql.id('label')}`);
  const value = (i: number, checked: CheckedValue) => adapter.encodeValue(keys[i] as Column, checked);
  const [single] = keys;
  const where =
    keys.length === 1 && single
      ? sql`${sql.id(single.name)} in (${sql.join(tuples.map((t) => value(0, t.checked[0] as CheckedValue)))})`
      : sql.join(
          tuples.map(
            (t) =>
              sql`(${sql.join(
                t.checked.map((v, i) => sql`${sql.id((keys[i] as Column).name)} = ${value(i, v)}`),
                sql` and `,
              )})`,
          ),
          sql` or `,
        );
  return sql<
    Record<string, unknown>
  >`select ${sql.join(selected)} from ${sql.id(referenced.schema, referenced.name)} where ${where}`;
}

/** The labels of the rows `rows` point at through each foreign key of `table` into a table of `readable`: one
 * statement a foreign key that has a complete key on the page, none for one that has not. */
export async function foreignKeyLabels(
  adapter: EngineAdapter,
  table: Table,
  readable: Table[],
  rows: Row[],
): Promise<ForeignKeyLabels[]> {
  const sources = labelSources(table, readable, rows);
  return Promise.all(
    sources.map(async (source): Promise<ForeignKeyLabels> => {
      const { fk, referenced, keys, label, tuples } = source;
      const entry = {
        constraint: fk.name,
        columns: fk.columns,
        schema: referenced.schema,
        table: referenced.name,
        key: fk.referencedColumns,
      };
      if (tuples.length === 0) return { ...entry, values: [] };
      const { rows: found } = await labelStatement(adapter, source).execute(adapter.db);
      // The key as the page holds it (the link and the cell match on it): the database may answer it in another
      // spelling (a decimal's scale, a case-insensitive collation's case).
      const byText = new Map(tuples.map((t) => [tupleText(t.given), t.given]));
      const byFolded = new Map(tuples.map((t) => [tupleText(t.given).toLowerCase(), t.given]));
      const values: ForeignKeyLabels['values'] = [];
      const answered = new Set<string>();
      for (const row of found) {
        const decoded = keys.map((key, i) => adapter.decodeValue(key, row[`k${i}`]));
        const text = tupleText(decoded);
        const given = byText.get(text) ?? byFolded.get(text.toLowerCase()) ?? decoded;
        if (given.some((v) => v === null) || answered.has(tupleText(given))) continue;
        answered.add(tupleText(given));
        const shown = label ? adapter.decodeValue(label, row['label']) : null;
        const labelText = shown === null ? decoded.map(String).join(', ') : String(shown);
        values.push({ key: given as (string | number | boolean)[], label: cutLabel(labelText) });
      }
      return { ...entry, values };
    }),
  );
}
