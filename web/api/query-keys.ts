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
  sql: {
    all: ['sql'] as const,
    databases: () => [...queryKeys.sql.all, 'databases'] as const,
    tables: (db: string) => [...queryKeys.sql.all, 'tables', db] as const,
    /** Everything of one table (pages, history): invalidated after a write to it. */
    table: (ref: { db: string; schema: string; table: string }) =>
      [...queryKeys.sql.all, 'table', ref.db, ref.schema, ref.table] as const,
    page: (request: {
      db: string;
      schema: string;
      table: string;
      filter: Record<string, unknown>;
      /** The filter document (issue 35), when one is set: the rows then come from …/query. */
      where?: unknown;
      sort: string | null;
      page: number;
      pageSize: number;
    }) =>
      [
        ...queryKeys.sql.table(request),
        'page',
        {
          filter: request.filter,
          where: request.where ?? null,
          sort: request.sort,
          page: request.page,
          pageSize: request.pageSize,
        },
      ] as const,
    /** How the engine would read a filter's rows (…/query/plan). */
    filterPlan: (request: {
      db: string;
      schema: string;
      table: string;
      where: unknown;
      orderBy: string | null;
    }) =>
      [
        ...queryKeys.sql.table(request),
        'filterPlan',
        { where: request.where, orderBy: request.orderBy },
      ] as const,
    foreignKeys: (request: { db: string; schema: string; table: string; column: string; term: string }) =>
      [...queryKeys.sql.table(request), 'foreignKeys', request.column, request.term.trim()] as const,
    /** A row's history (row-history.ts), by its key values. */
    history: (ref: { db: string; schema: string; table: string }, key: Record<string, unknown>) =>
      [...queryKeys.sql.table(ref), 'history', key] as const,
    /** What references a row (references.ts: the editor's Referenced by tab and its delete question), by its key. */
    references: (ref: { db: string; schema: string; table: string }, key: Record<string, unknown>) =>
      [...queryKeys.sql.table(ref), 'references', key] as const,
    /** One row read by its key (row-by-key.ts: the value panel's whole value). */
    row: (ref: { db: string; schema: string; table: string }, key: Record<string, unknown>) =>
      [...queryKeys.sql.table(ref), 'row', key] as const,
    export: (id: string) => [...queryKeys.sql.all, 'export', id] as const,
    /** The saved views of one table this person may open (issue 36). */
    views: (ref: { db: string; schema: string; table: string }) =>
      [...queryKeys.sql.table(ref), 'views'] as const,
  },
  admin: {
    all: ['admin'] as const,
    overview: () => [...queryKeys.admin.all, 'overview'] as const,
    /** Every page and detail of users: invalidated after a change to one. */
    users: () => [...queryKeys.admin.all, 'users'] as const,
    userPage: (query: { page: number; pageSize: number; username: string }) =>
      [...queryKeys.admin.users(), 'page', query] as const,
    user: (id: number) => [...queryKeys.admin.users(), 'user', id] as const,
    /** Every list and detail of roles: invalidated after a change to one. */
    roles: () => [...queryKeys.admin.all, 'roles'] as const,
    roleList: (name: string) => [...queryKeys.admin.roles(), 'list', name.trim()] as const,
    role: (id: number) => [...queryKeys.admin.roles(), 'role', id] as const,
    tables: () => [...queryKeys.admin.all, 'tables'] as const,
    audit: () => [...queryKeys.admin.all, 'audit'] as const,
    auditPage: (query: Record<string, string | number | undefined>) =>
      [...queryKeys.admin.audit(), 'page', query] as const,
    /** The row list of a bulk entry (under audit(): an undo reads it again). */
    auditRows: (id: number) => [...queryKeys.admin.audit(), 'rows', id] as const,
    /** Every page and transcript of Titan's conversations (/admin/chats). */
    chats: () => [...queryKeys.admin.all, 'chats'] as const,
    chatPage: (query: { page: number; pageSize: number }) =>
      [...queryKeys.admin.chats(), 'page', query] as const,
    chatTranscript: (sessionId: string) => [...queryKeys.admin.chats(), 'transcript', sessionId] as const,
  },
  contact: {
    all: ['contact'] as const,
    /** Every page of the inbox and the archive: invalidated after an answer or an archive. */
    messages: () => [...queryKeys.contact.all, 'messages'] as const,
    messagePage: (query: { page: number; pageSize: number; archived: boolean }) =>
      [...queryKeys.contact.messages(), 'page', query] as const,
  },
  chat: {
    all: ['chat'] as const,
    /** One conversation of Titan, by its session id (read again after a reload). */
    session: (sessionId: string) => [...queryKeys.chat.all, 'session', sessionId] as const,
  },
  analytics: {
    all: ['analytics'] as const,
    report: (days: number) => [...queryKeys.analytics.all, 'report', days] as const,
  },
};
