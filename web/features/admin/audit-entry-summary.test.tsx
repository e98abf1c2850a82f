import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { AuditEntryLine } from './audit-entry-summary.tsx';
import {
  auditActionGroups,
  auditActionLabel,
  auditTargetLabel,
  auditTargetTableId,
  auditTimeLabel,
  undoKind,
} from './audit-entry-text.ts';
import { renderPage } from '#web/test/render-page.tsx';

describe('an audit entry in words', () => {
  it('names the actions people look for and leaves unknown ones as they are', () => {
    expect(auditActionLabel('data.update')).toBe('Row changed');
    expect(auditActionLabel('data.insert')).toBe('Row added');
    expect(auditActionLabel('data.delete')).toBe('Row deleted');
    expect(auditActionLabel('data.undo')).toBe('Change undone');
    expect(auditActionLabel('sign-in')).toBe('Signed in');
    expect(auditActionLabel('sign-in.password-failed')).toBe('Wrong password');
    expect(auditActionLabel('sign-in.code-failed')).toBe('Wrong code');
    expect(auditActionLabel('account.locked')).toBe('Account locked');
    expect(auditActionLabel('admin.user.locked')).toBe('User locked');
    expect(auditActionLabel('something.new')).toBe('something.new');
  });

  it('groups each known action once', () => {
    const all = auditActionGroups.flatMap((g) => Object.keys(g.actions));
    expect(new Set(all).size).toBe(all.length);
    expect(auditActionGroups.map((g) => g.group)).toEqual([
      'Data changes',
      'Sign-in',
      'Account',
      'Administration',
    ]);
  });

  it('makes targets readable', () => {
    expect(auditTargetLabel('/db/chinook/main/Genre')).toBe('chinook.main.Genre');
    expect(auditTargetLabel('/db/shop/public/a%2Fb')).toBe('shop.public.a/b');
    expect(auditTargetTableId('/db/shop/public/a%2Fb')).toBe('shop/public/a%2Fb');
    expect(auditTargetTableId('user:3')).toBeNull();
    expect(auditTargetLabel('user:12')).toBe('user 12');
    expect(auditTargetLabel('audit:7')).toBe('entry #7');
    expect(auditTargetLabel('exports')).toBe('exports');
    expect(auditTargetLabel(null)).toBe('');
  });

  it('offers Undo for updates and inserts, Restore for deletes, nothing for the rest (as the server)', () => {
    expect(undoKind('data.update')).toBe('undo');
    expect(undoKind('data.insert')).toBe('undo');
    expect(undoKind('data.delete')).toBe('restore');
    expect(undoKind('data.undo')).toBeNull();
    expect(undoKind('admin.data.update')).toBeNull();
  });

  it('writes the time short and keeps the full instant as the title', () => {
    expect(auditTimeLabel('not a time')).toBe('not a time');
    expect(auditTimeLabel('2026-11-24T10:15:00.000Z')).toMatch(/2026/);
    renderPage(
      <AuditEntryLine
        entry={{
          at: '2026-11-24T10:15:00.000Z',
          username: null,
          action: 'data.update',
          target: '/db/c/main/T',
        }}
      />,
    );
    expect(screen.getByText('deleted account')).toBeTruthy();
    expect(screen.getByText('Row changed').getAttribute('title')).toBe('data.update');
    expect(screen.getByText('c.main.T')).toBeTruthy();
    expect(screen.getByTitle('2026-11-24T10:15:00.000Z').getAttribute('dateTime')).toBe(
      '2026-11-24T10:15:00.000Z',
    );
  });

  it('says a bulk change in a sentence on its one line', () => {
    renderPage(
      <AuditEntryLine
        entry={{
          at: '2026-12-03T10:15:00.000Z',
          username: 'editor',
          action: 'data.bulk',
          target: '/db/shop/public/invoice_line',
          detail: { change: 'delete', where: { and: [] }, keys: null, count: 12, rows: 12, status: 'done' },
        }}
      />,
    );
    expect(screen.getByText('Deleted 12 rows of invoice_line').getAttribute('title')).toBe('data.bulk');
  });
});
