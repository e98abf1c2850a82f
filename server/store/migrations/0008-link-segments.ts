import { sql, type Kysely } from 'kysely';
import { encodeSegment, tableId } from '#common/links.ts';
import { isPostgres } from './portable.ts';

/*
 * Links, TableIds and audit targets compared segment by segment (docs/decisions/0015-link-segments.md): each name is
 * now one percent-encoded segment. Until now they were stored as typed and compared as joined strings, so a name
 * that holds `/`, `*`, `%`, a space or non-ASCII letters was written raw. This rewrites such rows in their canonical
 * form, reading each the way the old matcher did, so that nothing is allowed that was not allowed before:
 *   - a link's segments are names written literally (the old matcher never decoded), a last `*` stays the wildcard;
 *   - a TableId or a table's audit target is {db}/{schema}/{table} with the table taking every slash after the
 *     second (the reading the old undo used); a name holding a slash was ambiguous, and this picks one of the two
 *     tables the old rule matched, never a third.
 * Plain names (letters, digits, `_`, `-`, `.`) are unchanged, so most stores change nothing. On PostgreSQL the
 * columns become text: a name encoded can be several times its raw length (SQLite does not enforce lengths).
 */

type Store = Kysely<{
  role_links: { id: number; role_id: number; link: string };
  role_permissions: {
    id: number;
    role_id: number;
    table_id: string;
    can_insert: number;
    can_update: number;
    can_delete: number;
  };
  audit_log: { id: number; target: string | null };
}>;

/** A link stored before 0008, in today's canonical form. */
export function legacyLink(stored: string): string {
  const link = stored.trim();
  if (link === '*' || !link.startsWith('/')) return link;
  const segments = link.slice(1).split('/');
  while (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  const last = segments.length - 1;
  return `/${segments.map((s, i) => (s === '*' && i === last ? s : encodeSegment(s))).join('/')}`;
}

/** A TableId stored before 0008 (names raw, the table taking the rest), in today's form; unchanged when it has
 * fewer than three parts. */
export function legacyTableId(stored: string): string {
  const first = stored.indexOf('/');
  const second = first < 0 ? -1 : stored.indexOf('/', first + 1);
  if (second < 0) return stored;
  return tableId(stored.slice(0, first), stored.slice(first + 1, second), stored.slice(second + 1));
}

/** An audit target stored before 0008: a table's /db/{TableId} or a database's /db/{db}. */
export function legacyTarget(stored: string): string {
  if (!stored.startsWith('/db/')) return stored;
  const rest = stored.slice('/db/'.length);
  const parts = rest.split('/');
  return parts.length >= 3 ? `/db/${legacyTableId(rest)}` : `/db/${parts.map(encodeSegment).join('/')}`;
}

export async function up(untypedDb: Kysely<unknown>): Promise<void> {
  const db = untypedDb as Store;
  if (isPostgres(untypedDb)) {
    // varchar(n) to text needs no table rewrite on PostgreSQL; the indexes stay.
    for (const [table, column] of [
      ['role_links', 'link'],
      ['role_permissions', 'table_id'],
      ['audit_log', 'target'],
    ] as const) {
      await untypedDb.schema
        .alterTable(table)
        .alterColumn(column, (c) => c.setDataType('text'))
        .execute();
    }
  }

  // Rows that change are first moved out of the way (a value of their own), so no update meets the unique
  // (role_id, value) of a row not yet rewritten; then, in id order, each takes its new value, or is merged into the
  // row of its role that already has it (`/a/` and `/a` become one link; two permissions add up their rights).
  const temporary = (id: number) => `\u0001${id}`;
  const key = (roleId: number, value: string) => `${roleId}\u0001${value}`;

  const links = await db.selectFrom('role_links').select(['id', 'role_id', 'link']).orderBy('id').execute();
  const changedLinks = links.filter((l) => legacyLink(l.link) !== l.link);
  const takenLinks = new Set(
    links.filter((l) => !changedLinks.includes(l)).map((l) => key(l.role_id, l.link)),
  );
  for (const row of changedLinks) {
    await db
      .updateTable('role_links')
      .set({ link: temporary(row.id) })
      .where('id', '=', row.id)
      .execute();
  }
  for (const row of changedLinks) {
    const link = legacyLink(row.link);
    if (takenLinks.has(key(row.role_id, link))) {
      await db.deleteFrom('role_links').where('id', '=', row.id).execute();
    } else {
      await db.updateTable('role_links').set({ link }).where('id', '=', row.id).execute();
      takenLinks.add(key(row.role_id, link));
    }
  }

  const permissions = await db.selectFrom('role_permissions').selectAll().orderBy('id').execute();
  const changedPermissions = permissions.filter((p) => legacyTableId(p.table_id) !== p.table_id);
  const keptPermissions = new Map(
    permissions.filter((p) => !changedPermissions.includes(p)).map((p) => [key(p.role_id, p.table_id), p]),
  );
  for (const row of changedPermissions) {
    await db
      .updateTable('role_permissions')
      .set({ table_id: temporary(row.id) })
      .where('id', '=', row.id)
      .execute();
  }
  for (const row of changedPermissions) {
    const id = legacyTableId(row.table_id);
    const other = keptPermissions.get(key(row.role_id, id));
    if (other) {
      const rights = {
        can_insert: other.can_insert || row.can_insert ? 1 : 0,
        can_update: other.can_update || row.can_update ? 1 : 0,
        can_delete: other.can_delete || row.can_delete ? 1 : 0,
      };
      await db.deleteFrom('role_permissions').where('id', '=', row.id).execute();
      await db.updateTable('role_permissions').set(rights).where('id', '=', other.id).execute();
      keptPermissions.set(key(row.role_id, id), { ...other, ...rights });
    } else {
      await db.updateTable('role_permissions').set({ table_id: id }).where('id', '=', row.id).execute();
      keptPermissions.set(key(row.role_id, id), { ...row, table_id: id });
    }
  }

  // Audit targets: only those that can change are read (the trail is large): a character that encoding changes, a
  // segment starting with a dot, or a slash inside a table's name.
  const special = isPostgres(untypedDb)
    ? sql<boolean>`(target ~ '[^A-Za-z0-9/._~!''()-]' or target like '%/.%' or target like '/db/%/%/%/%')`
    : sql<boolean>`(target glob '*[^A-Za-z0-9/._~!''()-]*' or target like '%/.%' or target like '/db/%/%/%/%')`;
  const targets = await db
    .selectFrom('audit_log')
    .select(['id', 'target'])
    .where('target', 'like', '/db/%')
    .where(special)
    .execute();
  for (const row of targets) {
    const target = row.target === null ? null : legacyTarget(row.target);
    if (target !== row.target) {
      await db.updateTable('audit_log').set({ target }).where('id', '=', row.id).execute();
    }
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
