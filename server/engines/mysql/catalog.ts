import { sql, type Kysely } from 'kysely';
import { onDeleteRuleOf, type ForeignKey, type Index } from '#common/contract/sql.ts';
import type { CatalogColumn, CatalogTable } from '#server/engines/adapter.ts';
import { NUMBER_LITERAL, quotedText, type DefaultLiteral } from '#server/engines/column-defaults.ts';
import type { DynamicSchema } from '#server/engines/engine.ts';
import { nativeTypeOf } from './types.ts';

/*
 * The catalog of a MySQL or MariaDB connection in a handful of set-based queries, whatever the number of tables.
 * Databases are the schemas: the URL's database when it names one, else every database except the system ones.
 * Figures: estimatedRows is TABLES.TABLE_ROWS (InnoDB's sampled estimate; exact for MyISAM; null for views).
 * Index pageCount is the 'size' statistic (all pages of the index) of mysql.innodb_index_stats, null when the table
 * is not InnoDB, the index has no persistent statistics (FULLTEXT, SPATIAL) or the table cannot be read.
 * InnoDB keeps no fragmentation per index: averageFragmentation is the whole table's free space,
 * DATA_FREE / (DATA_LENGTH + INDEX_LENGTH + DATA_FREE) * 100, the same for every index of the table.
 */

const SYSTEM_SCHEMAS = ['mysql', 'information_schema', 'performance_schema', 'sys'];
const TABLE_TYPES = ['BASE TABLE', 'SYSTEM VERSIONED', 'VIEW', 'SYSTEM VIEW'];
const PAGES_SOURCE = "mysql.innodb_index_stats 'size'";
const FREE_SPACE_SOURCE = 'information_schema.TABLES.DATA_FREE (whole table)';

type Raw = Record<string, unknown>;

/** information_schema text can come back as bytes on MySQL 8 (binary collations). */
const text = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : value instanceof Uint8Array
      ? Buffer.from(value).toString('utf8')
      : String(value);
const textOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : text(value);
const numberOrNull = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(text(value));
  return Number.isFinite(n) ? n : null;
};
const keyOf = (schema: string, table: string) => `${schema}\u0000${table}`;

/** Which server answers and the database the connection's URL names (null when it names none). */
export async function serverFacts(
  db: Kysely<DynamicSchema>,
): Promise<{ isMariaDb: boolean; database: string | null }> {
  const { rows } = await sql<Raw>`select version() as version, database() as current_database`.execute(db);
  const row = rows[0] ?? {};
  return { isMariaDb: /mariadb/i.test(text(row.version)), database: textOrNull(row.current_database) };
}

/** Every table and view of the connection's databases. */
export async function readCatalog(db: Kysely<DynamicSchema>): Promise<CatalogTable[]> {
  const facts = await serverFacts(db);
  const schemas = facts.database ? [facts.database] : await userSchemas(db);
  if (schemas.length === 0) return [];
  const inSchemas = sql.join(schemas.map((schema) => sql`${schema}`));

  const [tableRows, columnRows, indexRows, foreignKeyRows, pageCounts, jsonColumns] = await Promise.all([
    sql<Raw>`
      select TABLE_SCHEMA as table_schema, TABLE_NAME as table_name, TABLE_TYPE as table_type, ENGINE as engine,
             TABLE_ROWS as table_rows, DATA_LENGTH as data_length, INDEX_LENGTH as index_length, DATA_FREE as data_free
      from information_schema.TABLES
      where TABLE_SCHEMA in (${inSchemas}) and TABLE_TYPE in (${sql.join(TABLE_TYPES.map((t) => sql`${t}`))})
      order by TABLE_SCHEMA, TABLE_NAME`.execute(db),
    sql<Raw>`
      select TABLE_SCHEMA as table_schema, TABLE_NAME as table_name, COLUMN_NAME as column_name,
             ORDINAL_POSITION as ordinal_position, DATA_TYPE as data_type, COLUMN_TYPE as column_type,
             CHARACTER_MAXIMUM_LENGTH as character_maximum_length, NUMERIC_PRECISION as numeric_precision,
             NUMERIC_SCALE as numeric_scale, DATETIME_PRECISION as datetime_precision, IS_NULLABLE as is_nullable,
             COLUMN_DEFAULT as column_default, EXTRA as extra
      from information_schema.COLUMNS
      where TABLE_SCHEMA in (${inSchemas})
      order by TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION`.execute(db),
    sql<Raw>`
      select TABLE_SCHEMA as table_schema, TABLE_NAME as table_name, INDEX_NAME as index_name,
             NON_UNIQUE as non_unique, SEQ_IN_INDEX as seq_in_index, COLUMN_NAME as column_name,
             INDEX_TYPE as index_type
      from information_schema.STATISTICS
      where TABLE_SCHEMA in (${inSchemas})
      order by TABLE_SCHEMA, TABLE_NAME, INDEX_NAME = 'PRIMARY' desc, INDEX_NAME, SEQ_IN_INDEX`.execute(db),
    sql<Raw>`
      select k.TABLE_SCHEMA as table_schema, k.TABLE_NAME as table_name, k.CONSTRAINT_NAME as constraint_name,
             k.COLUMN_NAME as column_name, k.REFERENCED_TABLE_SCHEMA as referenced_schema,
             k.REFERENCED_TABLE_NAME as referenced_table, k.REFERENCED_COLUMN_NAME as referenced_column,
             r.DELETE_RULE as on_delete
      from information_schema.KEY_COLUMN_USAGE k
      join information_schema.REFERENTIAL_CONSTRAINTS r
        on r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA and r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
       and r.TABLE_NAME = k.TABLE_NAME
      where k.TABLE_SCHEMA in (${inSchemas}) and k.REFERENCED_TABLE_NAME is not null
      order by k.TABLE_SCHEMA, k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`.execute(db),
    indexPageCounts(db, inSchemas),
    facts.isMariaDb ? mariaDbJsonColumns(db, inSchemas) : Promise.resolve(new Set<string>()),
  ]);

  const tables = new Map<string, CatalogTable>();
  const freeSpace = new Map<string, { engine: string | null; fragmentation: number | null }>();
  for (const row of tableRows.rows) {
    const schema = text(row.table_schema);
    const name = text(row.table_name);
    const isView = /VIEW/.test(text(row.table_type));
    tables.set(keyOf(schema, name), {
      schema,
      name,
      isView,
      columns: [],
      primaryKey: [],
      indexes: [],
      foreignKeys: [],
      estimatedRows: isView ? null : numberOrNull(row.table_rows),
    });
    freeSpace.set(keyOf(schema, name), {
      engine: textOrNull(row.engine),
      fragmentation: fragmentationOf(row),
    });
  }

  for (const row of columnRows.rows) {
    const schema = text(row.table_schema);
    const tableName = text(row.table_name);
    const table = tables.get(keyOf(schema, tableName));
    if (!table) continue;
    const name = text(row.column_name);
    table.columns.push(
      catalogColumn(row, facts.isMariaDb, jsonColumns.has(`${keyOf(schema, tableName)}\u0000${name}`)),
    );
  }

  const indexes = new Map<string, Index>();
  for (const row of indexRows.rows) {
    const schema = text(row.table_schema);
    const tableName = text(row.table_name);
    const table = tables.get(keyOf(schema, tableName));
    if (!table) continue;
    const name = text(row.index_name);
    const column = textOrNull(row.column_name);
    const indexKey = `${keyOf(schema, tableName)}\u0000${name}`;
    let index = indexes.get(indexKey);
    if (!index) {
      const storage = freeSpace.get(keyOf(schema, tableName));
      const pageCount = pageCounts?.get(indexKey) ?? null;
      const fragmentation = storage?.fragmentation ?? null;
      const sources = [
        pageCount !== null ? PAGES_SOURCE : null,
        fragmentation !== null ? FREE_SPACE_SOURCE : null,
      ];
      index = {
        name,
        type: text(row.index_type).toLowerCase(),
        isUnique: Number(text(row.non_unique)) === 0,
        isPrimaryKey: name === 'PRIMARY',
        columns: [],
        allocationType: storage?.engine ?? null,
        pageCount,
        averageFragmentation: fragmentation,
        statisticsSource: sources.filter((s) => s !== null).join('; ') || null,
      };
      indexes.set(indexKey, index);
      table.indexes.push(index);
    }
    // A MySQL 8 functional key part has no column.
    if (column !== null) index.columns.push(column);
    if (index.isPrimaryKey && column !== null) table.primaryKey.push(column);
  }

  const foreignKeys = new Map<string, ForeignKey>();
  for (const row of foreignKeyRows.rows) {
    const schema = text(row.table_schema);
    const tableName = text(row.table_name);
    const table = tables.get(keyOf(schema, tableName));
    if (!table) continue;
    const name = text(row.constraint_name);
    const fkKey = `${keyOf(schema, tableName)}\u0000${name}`;
    let foreignKey = foreignKeys.get(fkKey);
    if (!foreignKey) {
      foreignKey = {
        name,
        columns: [],
        referencedSchema: text(row.referenced_schema),
        referencedTable: text(row.referenced_table),
        referencedColumns: [],
        onDelete: onDeleteRuleOf(row.on_delete),
      };
      foreignKeys.set(fkKey, foreignKey);
      table.foreignKeys.push(foreignKey);
    }
    foreignKey.columns.push(text(row.column_name));
    foreignKey.referencedColumns.push(text(row.referenced_column));
  }

  return [...tables.values()];
}

async function userSchemas(db: Kysely<DynamicSchema>): Promise<string[]> {
  const { rows } = await sql<Raw>`
    select SCHEMA_NAME as schema_name from information_schema.SCHEMATA
    where SCHEMA_NAME not in (${sql.join(SYSTEM_SCHEMAS.map((s) => sql`${s}`))})
    order by SCHEMA_NAME`.execute(db);
  return rows.map((row) => text(row.schema_name));
}

function catalogColumn(row: Raw, isMariaDb: boolean, isJson: boolean): CatalogColumn {
  const name = text(row.column_name);
  const extra = text(row.extra);
  const native = nativeTypeOf({
    name,
    dataType: text(row.data_type),
    columnType: text(row.column_type),
    characterMaximumLength: numberOrNull(row.character_maximum_length),
    numericPrecision: numberOrNull(row.numeric_precision),
    numericScale: numberOrNull(row.numeric_scale),
    datetimePrecision: numberOrNull(row.datetime_precision),
    isJson,
  });
  let defaultValue = textOrNull(row.column_default);
  // MariaDB writes a DEFAULT NULL as the bare word NULL (a string default is quoted there: 'NULL').
  if (isMariaDb && defaultValue === 'NULL') defaultValue = null;
  return {
    id: Number(text(row.ordinal_position)),
    name,
    ...native,
    isNullable: text(row.is_nullable) === 'YES',
    isGuid: native.typeGroup === 'guid',
    isIdentity: /auto_increment/i.test(extra),
    isHidden: /INVISIBLE/i.test(extra),
    // VIRTUAL GENERATED, STORED GENERATED (MySQL, MariaDB), PERSISTENT (older MariaDB); not DEFAULT_GENERATED.
    isComputed: /\b(VIRTUAL|STORED|PERSISTENT)\b/i.test(extra),
    defaultValue,
    defaultLiteral: defaultValue === null ? undefined : mysqlDefault(defaultValue, extra, isMariaDb),
  };
}

/**
 * A default as information_schema writes it. MariaDB quotes a string ('text', quotes doubled) and writes numbers,
 * b'1' and NULL bare, an expression as its text (current_timestamp(), uuid(), (1 + 1)). MySQL writes a string
 * without quotes and marks an expression DEFAULT_GENERATED in EXTRA (CURRENT_TIMESTAMP aside).
 */
export function mysqlDefault(raw: string, extra: string, isMariaDb: boolean): DefaultLiteral {
  const bits = /^b'([01]+)'$/i.exec(raw);
  if (bits?.[1] !== undefined) return { constant: String(parseInt(bits[1], 2)) };
  if (!isMariaDb) {
    if (/DEFAULT_GENERATED/i.test(extra) || /^current_timestamp/i.test(raw)) return 'expression';
    return { constant: raw };
  }
  if (raw === 'NULL') return 'null';
  if (NUMBER_LITERAL.test(raw)) return { constant: raw };
  const quoted = quotedText(raw);
  return quoted === null ? 'expression' : { constant: quoted };
}

/** The table's free space in percent of its allocated space, or null when the engine reports none. */
function fragmentationOf(row: Raw): number | null {
  const data = numberOrNull(row.data_length);
  const index = numberOrNull(row.index_length);
  const free = numberOrNull(row.data_free);
  if (data === null || free === null) return null;
  const total = data + (index ?? 0) + free;
  return total > 0 ? Math.round((free / total) * 10_000) / 100 : null;
}

/** Pages per index from InnoDB's persistent statistics; null when that table cannot be read (no privilege). */
async function indexPageCounts(
  db: Kysely<DynamicSchema>,
  inSchemas: ReturnType<typeof sql.join>,
): Promise<Map<string, number> | null> {
  try {
    const { rows } = await sql<Raw>`
      select database_name, table_name, index_name, stat_value from mysql.innodb_index_stats
      where database_name in (${inSchemas}) and stat_name = 'size'`.execute(db);
    const pages = new Map<string, number>();
    for (const row of rows) {
      // A partitioned table has one entry per partition (table#P#p0, MySQL 8: table#p#p0): add them up.
      const table = text(row.table_name).replace(/#p#.*$/i, '');
      const key = `${keyOf(text(row.database_name), table)}\u0000${text(row.index_name)}`;
      pages.set(key, (pages.get(key) ?? 0) + (numberOrNull(row.stat_value) ?? 0));
    }
    return pages;
  } catch {
    return null;
  }
}

/** MariaDB's JSON is longtext with a json_valid(`column`) check named after the column. */
async function mariaDbJsonColumns(
  db: Kysely<DynamicSchema>,
  inSchemas: ReturnType<typeof sql.join>,
): Promise<Set<string>> {
  try {
    const { rows } = await sql<Raw>`
      select c.CONSTRAINT_SCHEMA as table_schema, c.TABLE_NAME as table_name, c.CONSTRAINT_NAME as column_name
      from information_schema.CHECK_CONSTRAINTS c
      where c.CONSTRAINT_SCHEMA in (${inSchemas})
        and c.CHECK_CLAUSE = concat('json_valid(', char(96), c.CONSTRAINT_NAME, char(96), ')')`.execute(db);
    return new Set(
      rows.map(
        (row) => `${keyOf(text(row.table_schema), text(row.table_name))}\u0000${text(row.column_name)}`,
      ),
    );
  } catch {
    return new Set();
  }
}
