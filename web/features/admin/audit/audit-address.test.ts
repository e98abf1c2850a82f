import { describe, expect, it } from 'vitest';
import {
  auditPageCount,
  auditRequest,
  auditSearch,
  isoOfLocalInput,
  localInputValue,
  readAuditAddress,
} from './audit-address.ts';
import { entryChanges, keyText, detailPairs } from './entry-changes.ts';

describe('the audit trail address', () => {
  it('reads the filters and page, leaving out what does not parse', () => {
    const address = readAuditAddress(
      new URLSearchParams(
        'userId=3&table=chinook/main/Genre&action=data.update,,data.delete&from=2026-11-24T10:00:00.000Z&to=soon&page=2',
      ),
    );
    expect(address).toEqual({
      userId: 3,
      table: 'chinook/main/Genre',
      actions: ['data.update', 'data.delete'],
      from: '2026-11-24T10:00:00.000Z',
      to: null,
      page: 2,
    });
    expect(readAuditAddress(new URLSearchParams('userId=x&table=Genre&page=0'))).toEqual({
      userId: null,
      table: null,
      actions: [],
      from: null,
      to: null,
      page: 1,
    });
  });

  it('writes only what is set, and asks for 20 a page', () => {
    const address = { userId: null, table: 'a/b/c', actions: ['sign-in'], from: null, to: null, page: 1 };
    expect(auditSearch(address).toString()).toBe('table=a%2Fb%2Fc&action=sign-in');
    expect(auditRequest({ ...address, page: 4 })).toEqual({
      page: 4,
      pageSize: 20,
      table: 'a/b/c',
      action: 'sign-in',
    });
  });

  it('counts pages of 20, at least one', () => {
    expect(auditPageCount(0)).toBe(1);
    expect(auditPageCount(20)).toBe(1);
    expect(auditPageCount(21)).toBe(2);
  });

  it('turns the date-time input’s local value into an ISO instant and back', () => {
    const iso = isoOfLocalInput('2026-11-24 10:15:00');
    expect(iso).toBe(new Date(2026, 10, 24, 10, 15, 0).toISOString());
    expect(localInputValue(iso)).toBe('2026-11-24 10:15:00');
    expect(isoOfLocalInput(null)).toBeNull();
    expect(localInputValue('nonsense')).toBeNull();
  });
});

describe('an entry’s detail', () => {
  it('compares an update field by field', () => {
    const changes = entryChanges({
      key: { GenreId: 1 },
      before: { GenreId: 1, Name: 'Rock' },
      after: { GenreId: 1, Name: 'Rock & Roll' },
    });
    expect(changes?.sides).toEqual({ before: true, after: true });
    expect(changes?.fields.map((f) => [f.name, f.changed])).toEqual([
      ['GenreId', false],
      ['Name', true],
    ]);
    expect(keyText(changes?.key ?? {})).toBe('GenreId 1');
  });

  it('has one side for an insert or a delete, and names what an undo undid', () => {
    expect(entryChanges({ key: { Id: 2 }, before: null, after: { Id: 2 } })?.sides).toEqual({
      before: false,
      after: true,
    });
    expect(
      entryChanges({ of: 9, change: 'insert', key: { Id: 2 }, before: { Id: 2 }, after: null })?.undoes,
    ).toBe(9);
  });

  it('lists other details as pairs', () => {
    expect(entryChanges({ until: 'x' })).toBeNull();
    expect(detailPairs({ until: '2026-11-24T10:00:00Z', after: 5, roles: [1, 2] })).toEqual([
      ['until', '2026-11-24T10:00:00Z'],
      ['after', '5'],
      ['roles', '[1,2]'],
    ]);
    expect(detailPairs(null)).toEqual([]);
  });
});
