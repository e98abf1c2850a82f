import type { Kysely } from 'kysely';
import { withId } from './portable.ts';

/*
 * Saved views (issue 36, docs/decisions/0062-views.md): per browsed table and owner, a named definition (shown
 * columns, sort, filter document, page size as JSON) and who may open it: 'private' (its author), 'everyone' (all who
 * may read the table) or 'roles' (the members of the roles in saved_view_roles). A view holds no rights; nothing about
 * its author's rights is stored. The table's names are text: a browsed engine decides how long they may be.
 * Deleting the owner deletes their views; deleting a role takes it off every view shared with it.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('saved_views'))
    .addColumn('database_name', 'text', (c) => c.notNull())
    .addColumn('schema_name', 'text', (c) => c.notNull())
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(80)', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('sharing', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('saved_views_owner_name', [
      'database_name',
      'schema_name',
      'table_name',
      'user_id',
      'name',
    ])
    .execute();
  await db.schema.createIndex('saved_views_user').on('saved_views').column('user_id').execute();

  await db.schema
    .createTable('saved_view_roles')
    .addColumn('view_id', 'integer', (c) => c.notNull().references('saved_views.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('saved_view_roles_key', ['view_id', 'role_id'])
    .execute();
  await db.schema.createIndex('saved_view_roles_role').on('saved_view_roles').column('role_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
