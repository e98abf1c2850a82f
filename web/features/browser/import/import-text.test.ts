import { describe, expect, it } from 'vitest';
import { importMessages, type ImportPreview, type ImportStatus } from '#common/contract/imports.ts';
import { ApiFailure } from '#web/api/query.ts';
import { countsText, draftOf, failureText, mappingOf, mappingProblems, SKIP } from './import-text.ts';

const column = (name: string, extra: Partial<ImportPreview['columns'][number]> = {}) => ({
  name,
  type: 'varchar',
  typeGroup: 'Text',
  required: false,
  writable: true,
  isIdentity: false,
  isPrimaryKey: false,
  ...extra,
});

const preview: ImportPreview = {
  fileName: 'genres.csv',
  size: 40,
  options: { format: 'csv', delimiter: ',', quote: '"', header: true, encoding: 'utf-8' },
  fileColumns: ['Id', 'Name', 'Label'],
  rows: [['1', 'Rock', 'R']],
  columns: [
    column('GenreId', { type: 'integer', isIdentity: true, isPrimaryKey: true }),
    column('Name', { required: true }),
    column('Code'),
  ],
  mapping: { Name: 'Name' },
  problems: [],
};

describe('the import flow’s mapping', () => {
  it('starts from the proposal, every file column present, the rest skipped', () => {
    expect(draftOf(preview)).toEqual({ Id: SKIP, Name: 'Name', Label: SKIP });
    expect(mappingOf(draftOf(preview))).toEqual({ Name: 'Name' });
  });

  it('names what blocks in the server’s words', () => {
    expect(mappingProblems(preview, draftOf(preview), false)).toEqual([]);
    expect(mappingProblems(preview, { Id: SKIP, Name: SKIP, Label: SKIP }, false)).toEqual([
      importMessages.nothingMapped,
      importMessages.requiredUnmapped('Name'),
    ]);
    expect(mappingProblems(preview, { Id: 'GenreId', Name: 'Name', Label: 'Name' }, false)).toEqual([
      importMessages.mappedTwice('Name'),
      importMessages.identityNeedsKeep('GenreId'),
    ]);
    expect(mappingProblems(preview, { Id: 'GenreId', Name: 'Name', Label: SKIP }, true)).toEqual([]);
  });
});

describe('the import flow’s words', () => {
  const status: ImportStatus = {
    state: 'done',
    dryRun: true,
    inProgress: false,
    percentageCompleted: 100,
    inserted: 3,
    updated: 1,
    skipped: 0,
    failed: 2,
    errors: [],
    auditId: null,
    error: null,
  };

  it('says what a dry run would do and what a run did', () => {
    expect(countsText(status).map((count) => `${count.label} ${count.value}`)).toEqual([
      'Would insert 3',
      'Would update 1',
      'Would skip 0',
      'Would fail 2',
    ]);
    expect(countsText({ ...status, dryRun: false }).map((count) => count.label)).toEqual([
      'Inserted',
      'Updated',
      'Skipped',
      'Failed',
    ]);
  });

  it('keeps the server’s sentence and says what to do about a right', () => {
    expect(failureText(new ApiFailure('The file is larger than 10 bytes.', 413), 'x')).toBe(
      'The file is larger than 10 bytes.',
    );
    expect(failureText(new ApiFailure('You may not add rows to Genre.', 403), 'x')).toMatch(
      /^You may not add rows to Genre\. Ask an administrator/,
    );
    expect(failureText(new Error(''), 'The file could not be uploaded.')).toBe(
      'The file could not be uploaded.',
    );
  });
});
