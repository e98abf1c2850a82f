import type { Filter } from '#common/contract/filter.ts';
import type { SavedView, ViewColumn, ViewInput, ViewSharing } from '#common/contract/views.ts';

/*
 * What a saved view keeps of the browser's state (issue 36, decision 0062): the column layout, the sort, the filter
 * document and the page size. The search terms and the page number are not part of a view.
 */
export interface ViewState {
  /** null: the spec's default columns (at most 8, indexed first). */
  columns: ViewColumn[] | null;
  sort: string | null;
  where: Filter | null;
  size: number;
}

/** The parts of a ViewState, each one address parameter (browser-address.ts). */
export type ViewField = keyof ViewState;

/** The state of the browser a view would keep. */
export function stateOf(browser: ViewState): ViewState {
  return { columns: browser.columns, sort: browser.sort, where: browser.where, size: browser.size };
}

/** The state a saved view opens with (as the server answered it for this person). */
export function stateOfView(view: SavedView): ViewState {
  return {
    columns: view.columns.length > 0 ? view.columns : null,
    sort: view.orderBy,
    where: view.where,
    size: view.pageSize,
  };
}

/** JSON with object keys in order, so two equal documents compare equal whatever order their keys came in. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** Whether two states agree on one part. */
export function sameStateField(
  a: Pick<ViewState, ViewField>,
  b: Pick<ViewState, ViewField>,
  field: ViewField,
) {
  return stable(a[field]) === stable(b[field]);
}

/** Whether two states show the same thing (Save is offered when the browser's differs from its view's). */
export function sameState(a: ViewState, b: ViewState): boolean {
  return stable(a) === stable(b);
}

/** The body that saves a state under a name (Id 0: a new view). */
export function viewInputOf(
  state: ViewState,
  options: { id: number; name: string; shared: ViewSharing },
): ViewInput {
  return {
    Id: options.id,
    name: options.name,
    columns: state.columns ?? [],
    orderBy: state.sort,
    where: state.where,
    pageSize: state.size,
    shared: options.shared,
  };
}

/** Who may open a view, in words. */
export function sharingText(shared: ViewSharing): string {
  if (shared === 'private') return 'Only you';
  if (shared === 'everyone') return 'Everyone who can read this table';
  return shared.roleIds.length === 1 ? 'One role' : `${shared.roleIds.length} roles`;
}
