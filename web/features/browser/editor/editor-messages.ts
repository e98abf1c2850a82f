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
} as const;
