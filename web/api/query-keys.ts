/*
 * Query keys, one factory per API area (bulletproof-react's pattern, with keys as data): every key of an area
 * starts with the area's `all`, so `invalidateQueries({ queryKey: queryKeys.account.all })` refreshes the area, and
 * no page writes a key by hand.
 */
export const queryKeys = {
  account: {
    all: ['account'] as const,
    verification: () => [...queryKeys.account.all, 'verification'] as const,
    user: () => [...queryKeys.account.all, 'user'] as const,
    roles: () => [...queryKeys.account.all, 'roles'] as const,
    providers: () => [...queryKeys.account.all, 'providers'] as const,
  },
};
