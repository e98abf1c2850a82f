import { sql, type Kysely } from 'kysely';
import { onDeleteRuleOf, type ForeignKey, type Index } from '#common/contract/sql.ts';
import {
  NUMBER_LITERAL,
  quotedText,
  withoutParentheses,
  type DefaultLiteral,
} from '#server/engines/column-defaults.ts';
import type { CatalogColumn, CatalogTable } from '#server/engines/adapter.ts';
import type { DynamicSchema } from '#server/engines/engine.ts';
import { nativeTypeOf, type PostgresType } from './types.ts';

/*
 * The catalog of a PostgreSQL database in six set-based queries, whatever the number of tables: relations,
 * columns, domains, keys, indexes and (when the pgstattuple extension is there) index fragmentation.
 */

/** Tables (r, p), views (v) and materialized views (m) the connection may read, outside the system schemas.
 * Every query below joins it, so they all see the same set. */
const visibleRelations = sql`
  select c.oid, c.relkind
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p', 'v', 'm')
    and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
    and left(n.nspname, 8) <> 'pg_temp_'
    and left(n.nspname, 14) <> 'pg_toast_temp_'
    and has_schema_privilege(n.oid, 'USAGE')
    and has_table_privilege(c.oid, 'SELECT')`;

interface RelationRow {
  oid: number;
  schema: string;
  name: string;
  kind: string;
  estimated_rows: number | null;
}

interface ColumnRow {
  table_oid: number;
  name: string;
  type_oid: number;
  typmod: number;
  not_null: boolean;
  identity: string;
  generated: string;
  default_value: string | null;
  type_name: string;
  type_kind: string;
  type_category: string;
  element_name: string | null;
}

interface DomainRow {
  oid: number;
  typmod: number;
  not_null: boolean;
  base_oid: number;
  type_name: string;
  type_kind: string;
  type_category: string;
  element_name: string | null;
}

interface KeyRow {
  table_oid: number;
  name: string;
  kind: 'p' | 'f';
  column_name: string;
  ref_schema: string | null;
  ref_table: string | null;
  ref_column: string | null;
  on_delete: string | null;
}

interface IndexRow {
  table_oid: number;
  index_oid: number;
  name: string;
  type: string;
  kind: string;
  is_unique: boolean;
  is_primary: boolean;
  pages: number;
  column_name: string;
}

interface FragmentationRow {
  index_oid: number;
  fragmentation: number;
  pages: string;
}

/** Every table and view the connection can read, with columns, keys and indexes. */
export async function readCatalog(db: Kysely<DynamicSchema>): Promise<CatalogTable[]> {
  const [relations, columns, domains, keys, indexes, fragmentation] = await Promise.all([
    readRelations(db),
    readColumns(db),
    readDomains(db),
    readKeys(db),
    readIndexes(db),
    readFragmentation(db),
  ]);

  const tables = new Map<number, CatalogTable>();
  for (const relation of relations) {
    tables.set(relation.oid, {
      schema: relation.schema,
      name: relation.name,
      // A materialized view is read-only like a view: only REFRESH changes its rows.
      isView: relation.kind === 'v' || relation.kind === 'm',
      columns: [],
      primaryKey: [],
      indexes: [],
      foreignKeys: [],
      estimatedRows: relation.estimated_rows === null ? null : Math.round(relation.estimated_rows),
    });
  }

  const domainOf = new Map(domains.map((domain) => [domain.oid, domain]));
  for (const row of columns) {
    const table = tables.get(row.table_oid);
    if (table) table.columns.push(columnOf(row, table.columns.length + 1, domainOf));
  }

  const foreignKeys = new Map<string, ForeignKey>();
  for (const row of keys) {
    const table = tables.get(row.table_oid);
    if (!table) continue;
    if (row.kind === 'p') {
      table.primaryKey.push(row.column_name);
      continue;
    }
    const id = `${row.table_oid}/${row.name}`;
    let foreignKey = foreignKeys.get(id);
    if (!foreignKey) {
      foreignKey = {
        name: row.name,
        columns: [],
        referencedSchema: row.ref_schema ?? '',
        referencedTable: row.ref_table ?? '',
        referencedColumns: [],
        onDelete: onDeleteRuleOf(row.on_delete),
      };
      foreignKeys.set(id, foreignKey);
      table.foreignKeys.push(foreignKey);
    }
    foreignKey.columns.push(row.column_name);
    foreignKey.referencedColumns.push(row.ref_column ?? '');
  }

  const measured = new Map(fragmentation.map((row) => [row.index_oid, row]));
  const indexByOid = new Map<number, Index>();
  for (const row of indexes) {
    const table = tables.get(row.table_oid);
    if (!table) continue;
    let index = indexByOid.get(row.index_oid);
    if (!index) {
      index = indexOf(row, measured.get(row.index_oid));
      indexByOid.set(row.index_oid, index);
      table.indexes.push(index);
    }
    index.columns.push(row.column_name);
  }

  return [...tables.values()];
}

function readRelations(db: Kysely<DynamicSchema>) {
  return sql<RelationRow>`
    select c.oid, n.nspname as schema, c.relname as name, c.relkind as kind,
      -- reltuples is -1 until the table is first vacuumed or analysed (PostgreSQL 14+); a view has none.
      case when c.relkind <> 'v' and c.reltuples >= 0 then c.reltuples::float8 end as estimated_rows
    from (${visibleRelations}) v
    join pg_class c on c.oid = v.oid
    join pg_namespace n on n.oid = c.relnamespace
    order by n.nspname, c.relname`
    .execute(db)
    .then((result) => result.rows);
}

function readColumns(db: Kysely<DynamicSchema>) {
  return sql<ColumnRow>`
    select a.attrelid as table_oid, a.attname as name, a.atttypid as type_oid, a.atttypmod as typmod,
      a.attnotnull as not_null, a.attidentity::text as identity, a.attgenerated::text as generated,
      case when a.attgenerated = '' then pg_get_expr(d.adbin, d.adrelid) end as default_value,
      t.typname as type_name, t.typtype::text as type_kind, t.typcategory::text as type_category,
      e.typname as element_name
    from (${visibleRelations}) v
    join pg_attribute a on a.attrelid = v.oid
    join pg_type t on t.oid = a.atttypid
    left join pg_type e on e.oid = t.typelem and t.typcategory = 'A'
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attnum > 0 and not a.attisdropped
    order by a.attrelid, a.attnum`
    .execute(db)
    .then((result) => result.rows);
}

/** Domains with the type each is declared over (which may itself be a domain). */
function readDomains(db: Kysely<DynamicSchema>) {
  return sql<DomainRow>`
    select d.oid, d.typtypmod as typmod, d.typnotnull as not_null, b.oid as base_oid,
      b.typname as type_name, b.typtype::text as type_kind, b.typcategory::text as type_category,
      e.typname as element_name
    from pg_type d
    join pg_type b on b.oid = d.typbasetype
    left join pg_type e on e.oid = b.typelem and b.typcategory = 'A'
    where d.typtype = 'd'`
    .execute(db)
    .then((result) => result.rows);
}

/** Primary and foreign keys, one row per column in key order. */
function readKeys(db: Kysely<DynamicSchema>) {
  return sql<KeyRow>`
    select con.conrelid as table_oid, con.conname as name, con.contype::text as kind, a.attname as column_name,
      fn.nspname as ref_schema, fc.relname as ref_table, fa.attname as ref_column,
      con.confdeltype::text as on_delete
    from (${visibleRelations}) v
    join pg_constraint con on con.conrelid = v.oid
    cross join lateral unnest(con.conkey, con.confkey) with ordinality as k(attnum, ref_attnum, position)
    join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum
    left join pg_class fc on fc.oid = con.confrelid
    left join pg_namespace fn on fn.oid = fc.relnamespace
    left join pg_attribute fa on fa.attrelid = con.confrelid and fa.attnum = k.ref_attnum
    where con.contype in ('p', 'f')
      -- A key referencing a partitioned table has a hidden copy per partition on the same table: skip them.
      and not exists (
        select 1 from pg_constraint parent where parent.oid = con.conparentid and parent.conrelid = con.conrelid)
    order by con.conrelid, con.contype, con.conname, k.position`
    .execute(db)
    .then((result) => result.rows);
}

/** Indexes, one row per key column in order (INCLUDE columns are not keys); an expression shows as its text. */
function readIndexes(db: Kysely<DynamicSchema>) {
  return sql<IndexRow>`
    select i.indrelid as table_oid, i.indexrelid as index_oid, ic.relname as name, am.amname as type,
      ic.relkind::text as kind, i.indisunique as is_unique, i.indisprimary as is_primary, ic.relpages as pages,
      case when i.indkey[k.position - 1] = 0 then pg_get_indexdef(i.indexrelid, k.position, true)
        else a.attname::text end as column_name
    from (${visibleRelations}) v
    join pg_index i on i.indrelid = v.oid
    join pg_class ic on ic.oid = i.indexrelid
    join pg_am am on am.oid = ic.relam
    cross join lateral generate_series(1, i.indnkeyatts::int) as k(position)
    left join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[k.position - 1]
    order by i.indrelid, ic.relname, k.position`
    .execute(db)
    .then((result) => result.rows);
}

/** Index pages pgstatindex may read in one catalog read: it reads every page of the indexes it measures, so the
 * smallest btree indexes are measured until this budget is spent (65,536 pages = 512 MiB at 8 kB pages). */
export const fragmentationPageBudget = 65_536;

/** Leaf fragmentation of btree indexes from pgstatindex, when the pgstattuple extension is installed and
 * we may call it; an empty list otherwise (the figures then come from pg_class.relpages). */
async function readFragmentation(db: Kysely<DynamicSchema>): Promise<FragmentationRow[]> {
  const extension = await sql<{ schema: string }>`
    select n.nspname as schema
    from pg_extension x
    join pg_namespace n on n.oid = x.extnamespace
    join pg_proc p on p.pronamespace = x.extnamespace and p.proname = 'pgstatindex'
    where x.extname = 'pgstattuple' and p.pronargs = 1 and p.proargtypes[0] = 'regclass'::regtype
      and has_function_privilege(p.oid, 'EXECUTE')`.execute(db);
  const schema = extension.rows[0]?.schema;
  if (schema === undefined) return [];
  try {
    const result = await sql<FragmentationRow>`
      select m.index_oid, s.leaf_fragmentation::float8 as fragmentation,
        (s.index_size / current_setting('block_size')::int8)::text as pages
      from (
        select w.index_oid from (
          select i.indexrelid as index_oid,
            sum(ic.relpages::int8) over (order by ic.relpages, i.indexrelid) as spent
          from (${visibleRelations}) v
          join pg_index i on i.indrelid = v.oid
          join pg_class ic on ic.oid = i.indexrelid
          join pg_am am on am.oid = ic.relam
          where am.amname = 'btree' and ic.relkind = 'i' and i.indisvalid and i.indisready
        ) w
        where w.spent <= ${fragmentationPageBudget}
        offset 0 -- keeps the budget filter below the calls
      ) m
      cross join lateral ${sql.id(schema, 'pgstatindex')}(m.index_oid::regclass) s`.execute(db);
    return result.rows;
  } catch {
    // An index dropped while we read, or a permission we lack: fall back to relpages for every index.
    return [];
  }
}

function columnOf(row: ColumnRow, id: number, domainOf: Map<number, DomainRow>): CatalogColumn {
  let type: PostgresType = {
    name: row.type_name,
    kind: row.type_kind,
    category: row.type_category,
    elementName: row.element_name,
  };
  let typmod = row.typmod;
  let notNull = row.not_null;
  // A domain behaves as its base type, with the domain's length/precision and NOT NULL.
  for (let domain = domainOf.get(row.type_oid), depth = 0; domain && depth < 32; depth += 1) {
    if (typmod < 0) typmod = domain.typmod;
    notNull ||= domain.not_null;
    type = {
      name: domain.type_name,
      kind: domain.type_kind,
      category: domain.type_category,
      elementName: domain.element_name,
    };
    domain = domain.type_kind === 'd' ? domainOf.get(domain.base_oid) : undefined;
  }
  const native = nativeTypeOf(type, typmod, row.name);
  return {
    id,
    name: row.name,
    ...native,
    isNullable: !notNull,
    isGuid: native.typeGroup === 'guid',
    isIdentity: row.identity === 'a' || row.identity === 'd' || /^nextval\(/i.test(row.default_value ?? ''),
    isHidden: false,
    isComputed: row.generated === 's',
    defaultValue: row.default_value,
    defaultLiteral: row.default_value === null ? undefined : postgresDefault(row.default_value),
  };
}

/** A default as pg_get_expr writes it: true, 42, 1.5, 'text'::type (quotes doubled), NULL::type; anything else
 * (now(), nextval(…), an E'…' string, an operation) is an expression. */
export function postgresDefault(raw: string): DefaultLiteral {
  const text = withoutParentheses(raw);
  if (/^NULL(::.+)?$/i.test(text)) return 'null';
  if (/^(true|false)$/.test(text) || NUMBER_LITERAL.test(text)) return { constant: text };
  const cast = /^('.*')::[\w ."[\]()]+$/s.exec(text);
  const quoted = cast?.[1] === undefined ? null : quotedText(cast[1]);
  return quoted === null ? 'expression' : { constant: quoted };
}

function indexOf(row: IndexRow, measured: FragmentationRow | undefined): Index {
  const base = {
    name: row.name,
    type: row.type,
    isUnique: row.is_unique,
    isPrimaryKey: row.is_primary,
    columns: [],
  };
  // PostgreSQL does not say where an index is allocated; a partitioned index has no storage of its own.
  if (row.kind !== 'i') {
    return {
      ...base,
      allocationType: null,
      pageCount: null,
      averageFragmentation: null,
      statisticsSource: null,
    };
  }
  if (measured) {
    return {
      ...base,
      allocationType: null,
      pageCount: Number(measured.pages),
      // pgstatindex answers NaN for an index without leaf pages: nothing there is out of order.
      averageFragmentation: Number.isNaN(measured.fragmentation) ? 0 : measured.fragmentation,
      statisticsSource: 'pgstatindex',
    };
  }
  return {
    ...base,
    allocationType: null,
    pageCount: row.pages,
    averageFragmentation: null,
    statisticsSource: 'pg_class.relpages',
  };
}
