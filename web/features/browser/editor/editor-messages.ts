import type { OnDeleteRule } from '#common/contract/sql.ts';

/** "1 row", "12 rows", "1,000+ rows": a count of rows as the Referenced-by tab and the delete question say it. */
const rows = (count: number, capped = false) =>
  `${count.toLocaleString('en-US')}${capped ? '+' : ''} ${count === 1 && !capped ? 'row' : 'rows'}`;

/*
 * The row editor's own words, beside the spec's (common/messages.ts browserMessages and formMessages, used as they
 * are). Kept here rather than in the shared messages file because only the editor says them.
 */
export const editorMessages = {
  editTitle: 'Edit row',
  addTitle: 'Add row',
  rowTab: 'Row',
  historyTab: 'History',
  /** Issue 37 (decision 0065, Browser): the rows of other tables that point at this one. */
  referencesTab: 'Referenced by',
  copyRow: 'Copy row',
  deleteRow: 'Delete row',
  discardChanges: 'Discard Changes',
  saveChanges: 'Save Changes',
  cancel: 'Cancel',
  delete: 'Delete',
  /** Closing with pending changes is refused (spec 000 §4 pending changes block leaving); the toast says why. */
  closeWithPendingChanges: 'Save or discard your changes before closing.',
  readOnlyRow: 'You can read this row but not change it.',
  noChangeWithoutKey:
    'Rows of this table cannot be changed: it has no identity or guid column. Add or delete rows instead.',
  copied: 'A copy of the row: save it to add it as a new row.',
  chooseImage: 'Choose image',
  clearImage: 'Clear image',
  noImage: 'No image',
  imagePreview: (column: string) => `${column} preview`,
  clearValue: (column: string) => `Clear ${column}`,
  loadingOptions: 'Loading…',
  /** A foreign-key field left with text that names none of its options (issue 32: never dropped silently). */
  notAnOption: (text: string) => `“${text}” is not one of the options: choose one from the list.`,
  /** The name of a foreign-key field's list of options. */
  optionsOf: (column: string) => `${column} options`,
  /** The heading of the options that do not match the typed text (spec 000 §9: matches first, then the rest). */
  otherOptions: 'Other options',
  /** Said above every option when none matches the typed text. */
  noMatch: (text: string) => `Nothing matches “${text}”.`,
  /** The empty field of a column the database fills in on a new row (identity, now(), a sequence). */
  setByDatabase: 'Set by the database',

  // ---- Referenced by (issue 37, docs/decisions/0065-references.md, Browser) ----
  referencesLoading: 'Looking for rows that reference this row…',
  referencesFailed: 'Failed to find the rows that reference this row.',
  /** Only tables the person may read are listed (the server's rule), and the sentence says no more than that. */
  referencesNone: 'No table you can read references this row.',
  referencesList: 'Tables that reference this row',
  rowCount: rows,
  notCounted: 'not counted',
  /** Why a count is missing: the server counts only where an index makes it cheap. */
  notCountedReason:
    'The referencing columns are not indexed, so the rows were not counted. Open them to see.',
  /** The link of an entry whose referenced value is empty: nothing can point at it, so there is nothing to open. */
  referencesNoValue: 'This row’s referenced value is empty: no row can point at it.',
  openReferencing: (table: string) => `Open the rows of ${table} that reference this row`,
  /** A foreign key's ON DELETE rule in words, as the tab says it. */
  onDelete: (rule: OnDeleteRule): string =>
    ({
      restrict: 'Deleting this row is refused while they reference it (on delete restrict).',
      'no action': 'Deleting this row is refused while they reference it (on delete no action).',
      cascade: 'Deleting this row deletes them too (on delete cascade).',
      'set null': 'Deleting this row sets their reference to null (on delete set null).',
      'set default': 'Deleting this row sets their reference to its default (on delete set default).',
    })[rule],
  /** What the database will do with the rows of `table` that reference the row, said in the delete question; count
   * null: not counted. */
  deleteConsequence: (table: string, rule: OnDeleteRule, count: number | null, capped: boolean): string => {
    if (count === null) {
      const may = `Rows of ${table} may reference it (not counted)`;
      if (rule === 'cascade') return `${may}: any that do will be deleted with it.`;
      if (rule === 'set null' || rule === 'set default') {
        return `${may}: any that do will lose their reference (set to ${rule === 'set null' ? 'null' : 'default'}).`;
      }
      return `${may}: the database will refuse the delete if any do.`;
    }
    const some = rows(count, capped);
    const one = count === 1 && !capped;
    if (rule === 'cascade') return `${some} of ${table} will be deleted with it.`;
    if (rule === 'set null' || rule === 'set default') {
      return `${some} of ${table} will lose ${one ? 'its' : 'their'} reference (set to ${rule === 'set null' ? 'null' : 'default'}).`;
    }
    return `The database will refuse the delete while ${some} of ${table} ${one ? 'references' : 'reference'} it.`;
  },
  referencesUnchecked: (reason: string) =>
    `Whether other rows reference this row could not be checked. ${reason}`,
  referencesChecking: 'Checking whether other rows reference this row…',
} as const;
