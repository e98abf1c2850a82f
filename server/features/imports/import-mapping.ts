import { importMessages as im, type ImportRunBody } from '#common/contract/imports.ts';
import type { Column, Table } from '#common/contract/sql.ts';
import { badInput } from '#server/engines/engine-error.ts';

/*
 * Which file column goes to which table column (issue 39, docs/decisions/0069-imports.md). Names match with case,
 * spaces and punctuation ignored (`Track Id`, `track_id` and `TRACKID` are all `TrackId`). A column is required when
 * it is NOT NULL without a default and the database does not fill it in (identity, computed); computed and hidden
 * columns cannot be imported, and an identity column only when the person asks to keep the file's values.
 */

/** A name as mapping compares it: letters and digits only, lower case, accents kept apart from their letters. */
export const comparableName = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/** The file must give this column a value. */
export const isRequired = (column: Column): boolean =>
  !column.isNullable &&
  column.defaultValue === null &&
  !column.defaultIsExpression &&
  !column.isIdentity &&
  !column.isComputed;

/** An import may write it (identity only with keepIdentity). */
export const isWritable = (column: Column): boolean => !column.isComputed && !column.isHidden;

/** The proposed mapping: each file column to the table column of the same comparable name, identity columns left
 * to the person (keeping the file's values is a choice). */
export function proposeMapping(fileColumns: string[], table: Table): Record<string, string> {
  const byName = new Map<string, Column>();
  for (const column of table.columns)
    if (isWritable(column) && !column.isIdentity) byName.set(comparableName(column.name), column);
  const mapping: Record<string, string> = {};
  const taken = new Set<string>();
  for (const fileColumn of fileColumns) {
    const column = byName.get(comparableName(fileColumn));
    if (!column || taken.has(column.name)) continue;
    taken.add(column.name);
    mapping[fileColumn] = column.name;
  }
  return mapping;
}

/** What blocks a mapping before anything is read: the required columns it leaves out. */
export function mappingProblems(mapping: Record<string, string>, table: Table): string[] {
  const mapped = new Set(Object.values(mapping));
  return table.columns
    .filter((column) => isRequired(column) && !mapped.has(column.name))
    .map((column) => im.requiredUnmapped(column.name));
}

/** A file column and the table column it goes to. */
export interface MappedColumn {
  fileColumn: string;
  column: Column;
}

/** A run's mapping checked against the file's columns and the table: every problem is a 400 naming it. */
export function checkMapping(body: ImportRunBody, fileColumns: string[], table: Table): MappedColumn[] {
  const mapped: MappedColumn[] = [];
  const seen = new Set<string>();
  for (const [fileColumn, name] of Object.entries(body.mapping)) {
    if (!fileColumns.includes(fileColumn)) throw badInput(im.unknownFileColumn(fileColumn));
    const column = table.columns.find((c) => c.name === name);
    if (!column) throw badInput(im.unknownTableColumn(name, table.name));
    if (seen.has(name)) throw badInput(im.mappedTwice(name));
    if (!isWritable(column)) throw badInput(im.notWritable(name));
    if (column.isIdentity && !body.keepIdentity) throw badInput(im.identityNeedsKeep(name));
    seen.add(name);
    mapped.push({ fileColumn, column });
  }
  if (mapped.length === 0) throw badInput(im.nothingMapped);
  const [problem] = mappingProblems(body.mapping, table);
  if (problem) throw badInput(problem);
  return mapped;
}
