import fs from 'node:fs';
import { sql } from 'kysely';
import { onDeleteRuleOf, type Index } from '#common/contract/sql.ts';
import type { CatalogColumn, CatalogTable, Executor } from '#server/engines/adapter.ts';
import {
  NUMBER_LITERAL,
  quotedText,
  withoutParentheses,
  type DefaultLiteral,
} from '#server/engines/column-defaults.ts';
import { sqliteNativeType } from './types.ts';

/** SQLite has one schema per attached file; DBUI opens one file, so every table lives in `main`. */
export const SQLITE_SCHEMA = 'main';
/** dbstat reads every page of the file: above this size the page figures are left out (null). */
const DBSTAT_MAX_BYTES = 256 * 1024 * 1024;

interface ColumnRow {
  table_name: string;
  cid: number | bigint;
  name: string;
  type: string;
  notnull: number | bigint;
  dflt_value: string | null;
  pk: number | bigint;
  hidden: number | bigint;
}

/** Reads the whole catalog with a few set-based queries over the table-valued pragma functions. */
export async function readSqliteCatalog(db: Executor, file: string): Promise<CatalogTable[]> {
  const user = sql`m.type in ('table', 'view') and m.name not like 'sqlite\\_%' escape '\\'`;
  const [tables, columns, indexes, indexColumns, foreignKeys, estimates, pages] = await Promise.all([
    sql<{
      name: string;
      type: string;
      sql: string | null;
    }>`select m.name, m.type, m.sql from sqlite_schema m where ${user} order by m.name`.execute(db),
    sql<ColumnRow>`select m.name as table_name, p.cid, p.name, p.type, p."notnull", p.dflt_value, p.pk, p.hidden from sqlite_schema m join pragma_table_xinfo(m.name) p where ${user} order by m.name, p.cid`.execute(
      db,
    ),
    sql<{
      table_name: string;
      name: string;
      unique: number | bigint;
      origin: string;
    }>`select m.name as table_name, il.name, il."unique", il.origin from sqlite_schema m join pragma_index_list(m.name) il where m.type = 'table' and m.name not like 'sqlite\\_%' escape '\\'`.execute(
      db,
    ),
    sql<{
      index_name: string;
      seqno: number | bigint;
      name: string | null;
    }>`select il.name as index_name, ii.seqno, ii.name from sqlite_schema m join pragma_index_list(m.name) il join pragma_index_info(il.name) ii where m.type = 'table' order by il.name, ii.seqno`.execute(
      db,
    ),
    sql<{
      table_name: string;
      id: number | bigint;
      seq: number | bigint;
      table: string;
      from: string;
      to: string | null;
      on_delete: string | null;
    }>`select m.name as table_name, f.id, f.seq, f."table", f."from", f."to", f.on_delete from sqlite_schema m join pragma_foreign_key_list(m.name) f where m.type = 'table' order by m.name, f.id, f.seq`.execute(
      db,
    ),
    readEstimates(db),
    readPageStatistics(db, file),
  ]);

  const columnsOf = groupBy(columns.rows, (c) => c.table_name);
  const indexesOf = groupBy(indexes.rows, (i) => i.table_name);
  const indexColumnsOf = groupBy(indexColumns.rows, (c) => c.index_name);
  const foreignKeysOf = groupBy(foreignKeys.rows, (f) => f.table_name);
  const primaryKeyOf = (table: string) =>
    (columnsOf.get(table) ?? [])
      .filter((c) => Number(c.pk) > 0)
      .sort((a, b) => Number(a.pk) - Number(b.pk))
      .map((c) => c.name);

  return tables.rows.map((table): CatalogTable => {
    const primaryKey = primaryKeyOf(table.name);
    const definition = table.sql ?? '';
    const withoutRowid = /\)\s*without\s+rowid\s*;?\s*$/i.test(definition);
    const pkColumn =
      primaryKey.length === 1
        ? (columnsOf.get(table.name) ?? []).find((c) => c.name === primaryKey[0])
        : undefined;
    // INTEGER PRIMARY KEY makes the column the rowid: SQLite numbers it, as an identity.
    const rowidAlias =
      !withoutRowid && pkColumn !== undefined && pkColumn.type.trim().toLowerCase() === 'integer';

    const catalogColumns = (columnsOf.get(table.name) ?? []).map((c): CatalogColumn => {
      const native = sqliteNativeType(c.type, c.name);
      const hidden = Number(c.hidden);
      return {
        id: Number(c.cid) + 1,
        name: c.name,
        ...native,
        isNullable: Number(c.notnull) === 0 && !(rowidAlias && c.name === pkColumn?.name),
        isGuid: native.typeGroup === 'guid',
        isIdentity: rowidAlias && c.name === pkColumn?.name,
        isHidden: hidden === 1,
        isComputed: hidden === 2 || hidden === 3,
        defaultValue: c.dflt_value,
        defaultLiteral: c.dflt_value === null ? undefined : sqliteDefault(c.dflt_value),
      };
    });

    const tableIndexes: Index[] = (indexesOf.get(table.name) ?? []).map((i) => {
      const stats = pages.get(i.name);
      return {
        name: i.name,
        type: 'btree',
        isUnique: Number(i.unique) === 1,
        isPrimaryKey: i.origin === 'pk',
        columns: (indexColumnsOf.get(i.name) ?? []).map((c) => c.name ?? '(expression)'),
        allocationType: null,
        pageCount: stats?.pages ?? null,
        averageFragmentation: stats?.fragmentation ?? null,
        statisticsSource: stats ? 'dbstat' : null,
      };
    });
    if (rowidAlias && pkColumn) {
      // The rowid primary key has no separate index: the table's own b-tree is ordered by it.
      const stats = pages.get(table.name);
      tableIndexes.unshift({
        name: `${table.name} (rowid)`,
        type: 'rowid',
        isUnique: true,
        isPrimaryKey: true,
        columns: [pkColumn.name],
        allocationType: 'table b-tree',
        pageCount: stats?.pages ?? null,
        averageFragmentation: stats?.fragmentation ?? null,
        statisticsSource: stats ? 'dbstat' : null,
      });
    }

    const fkGroups = groupBy(foreignKeysOf.get(table.name) ?? [], (f) => String(f.id));
    return {
      schema: SQLITE_SCHEMA,
      name: table.name,
      isView: table.type === 'view',
      columns: catalogColumns,
      primaryKey,
      indexes: tableIndexes,
      foreignKeys: [...fkGroups.values()].map((parts) => {
        const referencedTable = parts[0]?.table ?? '';
        // A reference without columns means the referenced table's primary key.
        const referencedColumns = parts.every((p) => p.to !== null)
          ? parts.map((p) => p.to ?? '')
          : primaryKeyOf(referencedTable);
        return {
          name: `fk_${table.name}_${parts.map((p) => p.from).join('_')}`,
          columns: parts.map((p) => p.from),
          referencedSchema: SQLITE_SCHEMA,
          referencedTable,
          referencedColumns,
          onDelete: onDeleteRuleOf(parts[0]?.on_delete),
        };
      }),
      estimatedRows: table.type === 'view' ? null : (estimates.get(table.name) ?? null),
    };
  });
}

/** Row estimates from sqlite_stat1 when ANALYZE has run; none otherwise (then the engine counts). */
async function readEstimates(db: Executor): Promise<Map<string, number>> {
  const estimates = new Map<string, number>();
  const hasStats = await sql<{
    n: number | bigint;
  }>`select count(*) as n from sqlite_schema where name = 'sqlite_stat1'`.execute(db);
  if (Number(hasStats.rows[0]?.n ?? 0) === 0) return estimates;
  const rows = await sql<{ tbl: string; stat: string | null }>`select tbl, stat from sqlite_stat1`.execute(
    db,
  );
  for (const row of rows.rows) {
    const count = Number((row.stat ?? '').split(' ')[0]);
    if (Number.isFinite(count)) estimates.set(row.tbl, Math.max(estimates.get(row.tbl) ?? 0, count));
  }
  return estimates;
}

/**
 * Page counts and fragmentation from SQLite's dbstat table: the leaf pages of each b-tree in key order, and the
 * share of them that do not follow the previous one on disk (what SQL Server calls logical fragmentation).
 */
async function readPageStatistics(
  db: Executor,
  file: string,
): Promise<Map<string, { pages: number; fragmentation: number }>> {
  const stats = new Map<string, { pages: number; fragmentation: number }>();
  const size = file === ':memory:' ? 0 : (fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0);
  if (size > DBSTAT_MAX_BYTES) return stats;
  let rows;
  try {
    rows = await sql<{
      name: string;
      pageno: number | bigint;
      pagetype: string;
    }>`select name, pageno, pagetype from dbstat where pagetype in ('leaf', 'internal')`.execute(db);
  } catch {
    return stats; // dbstat not compiled in
  }
  const leaves = new Map<string, number[]>();
  const totals = new Map<string, number>();
  for (const row of rows.rows) {
    totals.set(row.name, (totals.get(row.name) ?? 0) + 1);
    if (row.pagetype === 'leaf') {
      const list = leaves.get(row.name) ?? [];
      list.push(Number(row.pageno));
      leaves.set(row.name, list);
    }
  }
  for (const [name, total] of totals) {
    const leafPages = leaves.get(name) ?? [];
    let outOfOrder = 0;
    leafPages.forEach((page, i) => {
      if (i > 0 && page !== (leafPages[i - 1] ?? 0) + 1) outOfOrder++;
    });
    const fragmentation =
      leafPages.length > 1 ? Math.round((outOfOrder / (leafPages.length - 1)) * 10_000) / 100 : 0;
    stats.set(name, { pages: total, fragmentation });
  }
  return stats;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** A default as SQLite keeps its text: 42, 'text' (quotes doubled), "text", TRUE, NULL, each maybe in parentheses;
 * anything else (CURRENT_TIMESTAMP, (datetime('now')), X'00', an operation) is an expression. */
export function sqliteDefault(raw: string): DefaultLiteral {
  const text = withoutParentheses(raw);
  if (/^NULL$/i.test(text)) return 'null';
  if (/^(TRUE|FALSE)$/i.test(text)) return { constant: text.toLowerCase() };
  if (NUMBER_LITERAL.test(text)) return { constant: text };
  const quoted = quotedText(text) ?? quotedText(text, '"');
  return quoted === null ? 'expression' : { constant: quoted };
}
