import type { AdminUser } from '#common/contract/admin.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { startsWithIgnoringCase } from '#server/store/roles.ts';

/** A page of users sorted by id, filtered by username prefix (case-insensitive), each with their roles. */
export async function pageOfUsers(
  store: AppStore,
  query: { page: number; pageSize: number; username?: string | undefined },
): Promise<{ results: AdminUser[]; count: number }> {
  const username = query.username;
  const base = username
    ? store.db.selectFrom('users').where(startsWithIgnoringCase('users.username', username))
    : store.db.selectFrom('users');
  const [users, total] = await Promise.all([
    base
      .select([
        'id',
        'username',
        'email',
        'first_name',
        'last_name',
        'email_verified_at',
        'password_expired',
        'locked_until',
        'created_at',
      ])
      .orderBy('id')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
  ]);
  const roles = users.length
    ? await store.db
        .selectFrom('user_roles')
        .innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .select(['user_roles.user_id', 'roles.id', 'roles.name', 'roles.is_admin'])
        .where(
          'user_roles.user_id',
          'in',
          users.map((u) => u.id),
        )
        .orderBy('roles.id')
        .execute()
    : [];
  return {
    count: Number(total?.n ?? 0),
    results: users.map((u) => {
      const mine = roles.filter((r) => r.user_id === u.id);
      return {
        id: u.id,
        username: u.username,
        email: u.email,
        firstName: u.first_name,
        lastName: u.last_name,
        isAdmin: mine.some((r) => r.is_admin === 1),
        emailVerified: u.email_verified_at !== null,
        passwordExpired: u.password_expired === 1,
        lockedUntil: u.locked_until,
        createdAt: u.created_at,
        roles: mine.map((r) => ({ Id: r.id, Name: r.name })),
      };
    }),
  };
}
