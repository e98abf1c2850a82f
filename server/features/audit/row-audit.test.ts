import { describe, expect, it } from 'vitest';
import type { Table } from '#common/contract/sql.ts';
import { auditedRow } from './row-audit.ts';

describe('rows in the audit trail', () => {
  it('keeps binary values as their length and SHA-256', () => {
    const table = {
      columns: [
        { name: 'Id', typeGroup: 'Number' },
        { name: 'Photo', typeGroup: 'image' },
        { name: 'Bytes', typeGroup: 'Binary' },
      ],
    } as unknown as Table;
    expect(auditedRow(table, { Id: 1, Photo: Buffer.from('abc').toString('base64'), Bytes: null })).toEqual({
      Id: 1,
      Photo: 'binary, 3 bytes, sha256 ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      Bytes: null,
    });
    expect(auditedRow(table, null)).toBeNull();
  });
});
