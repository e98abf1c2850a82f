/*
 * The words of the row editor's conflict view (docs/decisions/0045-row-versions.md): shown when a save is refused
 * because someone else changed the row after it was opened. The server's own sentence is
 * common/messages.ts rowVersionMessages.changedSince.
 */
export const conflictMessages = {
  title: 'Someone else changed this row',
  explain:
    'Nothing you typed is lost. For each field below, choose which value to keep: a field only one of you changed starts with that change.',
  same: 'Your values are the same as theirs: save to write your row over theirs.',
  original: 'When you opened it',
  mine: 'Yours',
  theirs: 'Theirs',
  empty: 'empty',
  changedByBoth: 'You both changed it.',
  changedByYou: 'You changed it.',
  changedByThem: 'They changed it.',
  notWritable: 'They changed it; it cannot be changed in an existing row, so theirs is kept.',
  back: 'Back to my changes',
  takeTheirs: 'Take theirs',
  keepMine: 'Keep mine',
  saveChoices: 'Save my choices',
  tookTheirs: 'The row is shown as it is now; your changes were dropped.',
  image: (size: string) => `image, ${size}`,
  yes: 'Yes',
  no: 'No',
} as const;
