/*
 * The row editor's own words, beside the spec's (common/messages.ts browserMessages and formMessages, used as they
 * are). Kept here rather than in the shared messages file because only the editor says them.
 */
export const editorMessages = {
  editTitle: 'Edit row',
  addTitle: 'Add row',
  rowTab: 'Row',
  historyTab: 'History',
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
} as const;
