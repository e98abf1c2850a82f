import { sql, type Kysely } from 'kysely';
import { onDeleteRuleOf, type ForeignKey, type Index } from '#common/contract/sql.ts';
import type { CatalogColumn, CatalogTable } from '#server/engines/adapter.ts';
import {
  NUMBER_LITERAL,
  quotedText,
  withoutParentheses,
  type DefaultLiteral,
} from '#server/engines/column-defaults.ts';
import type { DynamicSchema } from '#server/engines/engine.ts';
import { nativeTypeOf } from './types.ts';

/*
 * The catalog of a SQL Server database (2016 or later: sys.columns.is_hidden and generated_always_type) in five
 * set-based queries over the sys catalog views, whatever the number of tables, run side by side:
 * - tables (sys.tables) and views (sys.views) outside the system schemas (sys, INFORMATION_SCHEMA, guest and the
 *   db_* role schemas), not shipped by Microsoft (also not the designer's dbo.sysdiagrams), with estimatedRows
 *   from sys.partitions.rows of the heap or clustered index (null for a view without an index and for
 *   memory-optimized tables, whose rows sys.partitions does not count);
 * - columns (sys.columns, sys.types with alias types resolved to their system type, sys.default_constraints);
 * - indexes (sys.indexes, sys.index_columns key columns in key order; heaps are not indexes here, nor are
 *   disabled or hypothetical indexes; included columns are not `columns`, and a columnstore index has no key
 *   columns) and from them the primary key;
 * - foreign keys (sys.foreign_keys, sys.foreign_key_columns in constraint_column_id order);
 * - index figures from sys.dm_db_index_physical_stats(DB_ID(), NULL, NULL, NULL, 'LIMITED'): page_count summed over
 *   partitions and allocation units, avg_fragmentation_in_percent of the in-row data weighted by pages, the
 *   allocation unit types as allocationType. That view needs VIEW DATABASE STATE; without it (or when it fails or
 *   times out on a very large database) the page counts come from sys.allocation_units.used_pages, which every
 *   reader of the catalog may see, with averageFragmentation null, and statisticsSource says which.
 */

type Raw = Record<string, unknown>;

const PHYSICAL_STATS = 'sys.dm_db_index_physical_stats';
const ALLOCATION_UNITS = 'sys.allocation_units';

/** The tables and views of the catalog: user schemas only, nothing shipped by Microsoft. */
const userObjects = sql`
  select o.object_id, o.schema_id, o.name, o.type, o.is_memory_optimized
  from (
    select object_id, schema_id, name, type, is_memory_optimized from sys.tables where is_ms_shipped = 0
    union all
    select object_id, schema_id, name, type, cast(0 as bit) from sys.views where is_ms_shipped = 0
  ) as o
  join sys.schemas as s on s.schema_id = o.schema_id
  where s.name not in (
      N'sys', N'INFORMATION_SCHEMA', N'guest', N'db_owner', N'db_accessadmin', N'db_securityadmin', N'db_ddladmin',
      N'db_backupoperator', N'db_datareader', N'db_datawriter', N'db_denydatareader', N'db_denydatawriter')
    and not exists (
      select 1 from sys.extended_properties as ep
      where ep.class = 1 and ep.major_id = o.object_id and ep.minor_id = 0
        and ep.name = N'microsoft_database_tools_support')`;

/** The five catalog queries, exported so a test can compile them without a server. */
export const catalogQueries = {
  tables: sql<Raw>`
    with user_objects as (${userObjects})
    select uo.object_id, s.name as schema_name, uo.name as object_name,
           cast(case when uo.type = 'V' then 1 else 0 end as bit) as is_view,
           case when uo.is_memory_optimized = 1 then null
                else (select sum(p.rows) from sys.partitions as p where p.object_id = uo.object_id and p.index_id in (0, 1))
           end as estimated_rows
    from user_objects as uo
    join sys.schemas as s on s.schema_id = uo.schema_id
    order by s.name, uo.name`,
  columns: sql<Raw>`
    with user_objects as (${userObjects})
    select c.object_id, c.column_id, c.name as column_name, coalesce(bt.name, t.name) as type_name,
           c.max_length, c.precision, c.scale, c.is_nullable, c.is_identity, c.is_computed, c.is_rowguidcol,
           c.is_hidden, c.generated_always_type, dc.definition as default_definition
    from sys.columns as c
    join user_objects as uo on uo.object_id = c.object_id
    join sys.types as t on t.user_type_id = c.user_type_id
    left join sys.types as bt on bt.user_type_id = t.system_type_id
    left join sys.default_constraints as dc on dc.object_id = c.default_object_id
    order by c.object_id, c.column_id`,
  indexes: sql<Raw>`
    with user_objects as (${userObjects})
    select i.object_id, i.index_id, i.name as index_name, i.type_desc, i.is_unique, i.is_primary_key,
           c.name as column_name, ic.key_ordinal
    from sys.indexes as i
    join user_objects as uo on uo.object_id = i.object_id
    left join sys.index_columns as ic
      on ic.object_id = i.object_id and ic.index_id = i.index_id and ic.key_ordinal > 0
    left join sys.columns as c on c.object_id = ic.object_id and c.column_id = ic.column_id
    where i.type <> 0 and i.is_hypothetical = 0 and i.is_disabled = 0
    order by i.object_id, i.index_id, ic.key_ordinal`,
  foreignKeys: sql<Raw>`
    with user_objects as (${userObjects})
    select fk.parent_object_id as object_id, fk.name as constraint_name, pc.name as column_name,
           rs.name as referenced_schema, ro.name as referenced_table, rc.name as referenced_column,
           fk.delete_referential_action_desc as on_delete,
           fkc.constraint_column_id
    from sys.foreign_keys as fk
    join user_objects as uo on uo.object_id = fk.parent_object_id
    join sys.foreign_key_columns as fkc on fkc.constraint_object_id = fk.object_id
    join sys.columns as pc on pc.object_id = fkc.parent_object_id and pc.column_id = fkc.parent_column_id
    join sys.objects as ro on ro.object_id = fk.referenced_object_id
    join sys.schemas as rs on rs.schema_id = ro.schema_id
    join sys.columns as rc on rc.object_id = fkc.referenced_object_id and rc.column_id = fkc.referenced_column_id
    order by fk.parent_object_id, fk.name, fkc.constraint_column_id`,
  physicalStats: sql<Raw>`
    with user_objects as (${userObjects})
    select ps.object_id, ps.index_id, ps.alloc_unit_type_desc as allocation_type,
           sum(ps.page_count) as page_count,
           case when sum(ps.page_count) > 0
                then sum(ps.avg_fragmentation_in_percent * ps.page_count)
                     / nullif(sum(case when ps.avg_fragmentation_in_percent is not null then ps.page_count end), 0)
                else avg(ps.avg_fragmentation_in_percent)
           end as fragmentation
    from sys.dm_db_index_physical_stats(db_id(), null, null, null, 'LIMITED') as ps
    join user_objects as uo on uo.object_id = ps.object_id
    where ps.index_id > 0
    group by ps.object_id, ps.index_id, ps.alloc_unit_type_desc`,
  allocationUnits: sql<Raw>`
    with user_objects as (${userObjects})
    select p.object_id, p.index_id, au.type_desc as allocation_type, sum(au.used_pages) as page_count,
           cast(null as float) as fragmentation
    from sys.partitions as p
    join user_objects as uo on uo.object_id = p.object_id
    join sys.allocation_units as au
      on (au.type in (1, 3) and au.container_id = p.hobt_id) or (au.type = 2 and au.container_id = p.partition_id)
    where p.index_id > 0
    group by p.object_id, p.index_id, au.type_desc`,
};

/** Every table and view of the connection's database outside the system schemas. */
export async function readCatalog(db: Kysely<DynamicSchema>): Promise<CatalogTable[]> {
  const [tables, columns, indexes, foreignKeys, statistics] = await Promise.all([
    catalogQueries.tables.execute(db),
    catalogQueries.columns.execute(db),
    catalogQueries.indexes.execute(db),
    catalogQueries.foreignKeys.execute(db),
    readIndexStatistics(db),
  ]);
  return assembleCatalog({
    tables: tables.rows,
    columns: columns.rows,
    indexes: indexes.rows,
    foreignKeys: foreignKeys.rows,
    statistics: statistics.rows,
    statisticsSource: statistics.source,
  });
}

/** Index figures from the physical-stats view, else from the allocation units, else none. */
async function readIndexStatistics(
  db: Kysely<DynamicSchema>,
): Promise<{ rows: Raw[]; source: string | null }> {
  try {
    return { rows: (await catalogQueries.physicalStats.execute(db)).rows, source: PHYSICAL_STATS };
  } catch {
    // Usually error 297/300: VIEW DATABASE STATE is not granted. The catalog is still wanted.
  }
  try {
    return { rows: (await catalogQueries.allocationUnits.execute(db)).rows, source: ALLOCATION_UNITS };
  } catch {
    return { rows: [], source: null };
  }
}

/** The rows of the catalog queries, as the driver returned them. */
export interface CatalogRows {
  tables: Raw[];
  columns: Raw[];
  indexes: Raw[];
  foreignKeys: Raw[];
  statistics: Raw[];
  statisticsSource: string | null;
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
const flag = (value: unknown): boolean => value === true || value === 1 || value === '1';
const numberOrNull = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};
const whole = (value: unknown): number => numberOrNull(value) ?? 0;

/** Allocation unit types in the order SQL Server lists them. */
const ALLOCATION_ORDER = ['IN_ROW_DATA', 'ROW_OVERFLOW_DATA', 'LOB_DATA'];

/** The catalog from the rows of its queries (each ordered as the queries order them). */
export function assembleCatalog(rows: CatalogRows): CatalogTable[] {
  const byObject = new Map<number, CatalogTable>();
  const tables: CatalogTable[] = [];
  for (const row of rows.tables) {
    const table: CatalogTable = {
      schema: text(row.schema_name),
      name: text(row.object_name),
      isView: flag(row.is_view),
      columns: [],
      primaryKey: [],
      indexes: [],
      foreignKeys: [],
      estimatedRows: numberOrNull(row.estimated_rows),
    };
    byObject.set(whole(row.object_id), table);
    tables.push(table);
  }

  const statistics = indexStatistics(rows.statistics, rows.statisticsSource);
  const indexIds = new Map<string, Index>();
  for (const row of rows.indexes) {
    const table = byObject.get(whole(row.object_id));
    if (!table) continue;
    const id = `${whole(row.object_id)}:${whole(row.index_id)}`;
    let index = indexIds.get(id);
    if (!index) {
      const figures = statistics.get(id);
      index = {
        name: text(row.index_name),
        type: text(row.type_desc),
        isUnique: flag(row.is_unique),
        isPrimaryKey: flag(row.is_primary_key),
        columns: [],
        allocationType: figures?.allocationType ?? null,
        pageCount: figures?.pageCount ?? null,
        averageFragmentation: figures?.averageFragmentation ?? null,
        statisticsSource: figures ? rows.statisticsSource : null,
      };
      indexIds.set(id, index);
      table.indexes.push(index);
    }
    if (row.column_name !== null && row.column_name !== undefined) index.columns.push(text(row.column_name));
  }
  for (const table of tables) {
    const primary = table.indexes.find((index) => index.isPrimaryKey);
    if (primary) table.primaryKey = [...primary.columns];
  }

  const columnFacts = new Map<number, Raw[]>();
  for (const row of rows.columns) {
    const list = columnFacts.get(whole(row.object_id)) ?? [];
    list.push(row);
    columnFacts.set(whole(row.object_id), list);
  }
  for (const [objectId, list] of columnFacts) {
    const table = byObject.get(objectId);
    if (!table) continue;
    table.columns = list.map((row, position) => catalogColumn(row, position + 1, table.primaryKey));
  }

  const foreignKeys = new Map<string, ForeignKey>();
  for (const row of rows.foreignKeys) {
    const table = byObject.get(whole(row.object_id));
    if (!table) continue;
    const id = `${whole(row.object_id)}:${text(row.constraint_name)}`;
    let fk = foreignKeys.get(id);
    if (!fk) {
      fk = {
        name: text(row.constraint_name),
        columns: [],
        referencedSchema: text(row.referenced_schema),
        referencedTable: text(row.referenced_table),
        referencedColumns: [],
        onDelete: onDeleteRuleOf(row.on_delete),
      };
      foreignKeys.set(id, fk);
      table.foreignKeys.push(fk);
    }
    fk.columns.push(text(row.column_name));
    fk.referencedColumns.push(text(row.referenced_column));
  }
  return tables;
}

const GENERATED_GUID = /\b(newid|newsequentialid)\s*\(/i;

/**
 * One column. Identity is sys.columns.is_identity. Computed: a computed column, a rowversion (timestamp) and a
 * temporal table's period columns (GENERATED ALWAYS AS ROW START/END), which the server fills in. Hidden:
 * sys.columns.is_hidden (period columns declared HIDDEN). A guid column is a uniqueidentifier the database fills in
 * or that identifies the row: ROWGUIDCOL, a NEWID()/NEWSEQUENTIALID() default, or the whole primary key. Other
 * uniqueidentifier columns (a reference to another table's guid, say) are ordinary values of the guid group.
 */
function catalogColumn(row: Raw, id: number, primaryKey: string[]): CatalogColumn {
  const name = text(row.column_name);
  const native = nativeTypeOf({
    name,
    typeName: text(row.type_name),
    maxLengthBytes: whole(row.max_length),
    precision: whole(row.precision),
    scale: whole(row.scale),
  });
  const defaultValue =
    row.default_definition === null || row.default_definition === undefined
      ? null
      : text(row.default_definition);
  const isRowVersion = native.type === 'timestamp' || native.type === 'rowversion';
  const isGuid =
    native.typeGroup === 'guid' &&
    (flag(row.is_rowguidcol) ||
      (defaultValue !== null && GENERATED_GUID.test(defaultValue)) ||
      (primaryKey.length === 1 && primaryKey[0] === name));
  return {
    id,
    name,
    type: native.type,
    typeGroup: native.typeGroup,
    maxLength: native.maxLength,
    precision: native.precision,
    scale: native.scale,
    isNullable: flag(row.is_nullable),
    isGuid,
    isIdentity: flag(row.is_identity),
    isHidden: flag(row.is_hidden),
    isComputed: flag(row.is_computed) || isRowVersion || whole(row.generated_always_type) > 0,
    defaultValue,
    defaultLiteral: defaultValue === null ? undefined : mssqlDefault(defaultValue),
  };
}

/** A default as sys.default_constraints keeps it: ((1)), (N'text') (quotes doubled), ('2020-01-01'), (NULL);
 * anything else (getdate(), newid(), an operation) is an expression. */
export function mssqlDefault(raw: string): DefaultLiteral {
  const text = withoutParentheses(raw);
  if (/^NULL$/i.test(text)) return 'null';
  if (NUMBER_LITERAL.test(text)) return { constant: text };
  const quoted = quotedText(text.replace(/^N(?=')/i, ''));
  return quoted === null ? 'expression' : { constant: quoted };
}

interface IndexFigures {
  allocationType: string | null;
  pageCount: number | null;
  averageFragmentation: number | null;
}

/** Rows per (object, index, allocation unit type) → one set of figures per index. */
function indexStatistics(rows: Raw[], source: string | null): Map<string, IndexFigures> {
  const grouped = new Map<string, Raw[]>();
  for (const row of rows) {
    const id = `${whole(row.object_id)}:${whole(row.index_id)}`;
    grouped.set(id, [...(grouped.get(id) ?? []), row]);
  }
  const figures = new Map<string, IndexFigures>();
  if (source === null) return figures;
  for (const [id, list] of grouped) {
    const types = [...new Set(list.map((row) => text(row.allocation_type)))].sort(
      (a, b) => rank(a) - rank(b) || a.localeCompare(b),
    );
    const pages = list.map((row) => numberOrNull(row.page_count));
    const inRow = list.find((row) => text(row.allocation_type) === 'IN_ROW_DATA');
    const fragmentation = numberOrNull(inRow?.fragmentation);
    figures.set(id, {
      allocationType: types.join(', ') || null,
      pageCount: pages.every((p) => p === null) ? null : pages.reduce<number>((sum, p) => sum + (p ?? 0), 0),
      averageFragmentation: fragmentation === null ? null : Math.round(fragmentation * 100) / 100,
    });
  }
  return figures;
}

const rank = (type: string) => {
  const at = ALLOCATION_ORDER.indexOf(type);
  return at < 0 ? ALLOCATION_ORDER.length : at;
};
