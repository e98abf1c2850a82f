/** The sentences of the Views menu and its save form (issue 36). */
export const viewsTexts = {
  button: 'Views',
  none: 'No saved views of this table yet.',
  loadFailed: 'The saved views could not be loaded. Open the menu again to retry.',
  tableDefault: 'The table’s default',
  save: (name: string) => `Save changes to “${name}”`,
  saveAs: 'Save as a new view…',
  share: (name: string) => `Rename or share “${name}”…`,
  delete: (name: string) => `Delete “${name}”`,
  deleted: (name: string) => `Deleted the view “${name}”.`,
  deleteFailed: 'The view could not be deleted. Please try again.',
  confirmDelete: (name: string) =>
    `Delete the view “${name}”? Everyone it is shared with loses it; the table and its rows stay as they are.`,
  saved: (name: string) => `Saved the view “${name}”.`,
  saveFailed: 'The view could not be saved. Please try again.',
  noRoles: 'Choose at least one role, or share it another way.',
  rolesHint: 'Members of these roles who can read this table will see it.',
  addressViewMissing:
    'This address names a saved view that is not shared with you, or that was deleted: the table’s default is shown.',
  addressViewFailed:
    'The saved view in this address could not be loaded: the table’s default is shown. Reload the page to try again.',
  adminRolesHint: 'As an administrator you can share with any role.',
} as const;
