import { describe, expect, it } from 'vitest';
import {
  CUT_IMAGE_MAX_BASE64,
  ROW_CUT_KEY,
  cutLengthsOf,
  type Column,
  type Row,
  type Table,
  type TypeGroup,
} from '#common/contract/sql.ts';
import { cutRows, refuseCutRow } from './cut-values.ts';

/* The cut itself (docs/decisions/0066-cut-values.md); cut-values.db.test.ts runs it through the calls on live
 * engines. */

function column(name: string, typeGroup: TypeGroup): Column {
  return {
    id: 1,
    name,
    type: typeGroup.toLowerCase(),
    typeGroup,
    maxLength: -1,
    precision: 0,
    scale: 0,
    isNullable: true,
    isIndexed: false,
    isForeignKey: false,
    isForeignKeySource: false,
    isGuid: false,
    isIdentity: false,
    isHidden: false,
    isComputed: false,
    isPrimaryKey: false,
    defaultValue: null,
    defaultConstant: null,
    defaultIsExpression: false,
  };
}

function tableOf(columns: Column[], primaryKey: string[] = ['code']): Table {
  return {
    id: 'db/main/t',
    schema: 'main',
    name: 't',
    isView: false,
    numberOfColumns: columns.length,
    numberOfRows: 1,
    numberOfRowsIsEstimate: false,
    hasIdentity: false,
    hasGuid: false,
    primaryKey,
    identityColumn: null,
    guidColumn: null,
    columns,
    indexes: [],
    foreignKeys: [],
  };
}

const table = tableOf([
  column('code', 'Text'),
  column('name', 'Text'),
  column('note', 'Other'),
  column('data', 'Binary'),
  column('picture', 'image'),
  column('count', 'Number'),
]);

describe('cutRows', () => {
  it('cuts text by characters and binary by whole base64 quads, with the whole lengths', () => {
    const long = 'k'.repeat(300);
    const data = Buffer.alloc(300, 1).toString('base64');
    const row: Row = { code: long, name: 'n'.repeat(150), note: 'x', data, picture: 'AAAA', count: 1 };
    const [cut] = cutRows(table, [row], 101, null);
    expect(cut?.code).toBe(long);
    expect(cut?.name).toBe('n'.repeat(101));
    expect(cut?.note).toBe('x');
    expect(cut?.data).toBe(data.slice(0, 100));
    expect(cutLengthsOf(cut ?? {})).toEqual({ name: 150, data: 300 });
  });

  it('never splits a surrogate pair, and counts lengths as JavaScript does', () => {
    const text = `${'a'.repeat(99)}😀${'b'.repeat(10)}`;
    const [cut] = cutRows(table, [{ name: text }], 100, null);
    expect(cut?.name).toBe('a'.repeat(99));
    expect(cutLengthsOf(cut ?? {})).toEqual({ name: text.length });
  });

  it('keeps images whole up to their own bound, and the sort column whole', () => {
    const small = 'A'.repeat(CUT_IMAGE_MAX_BASE64);
    const big = `${'A'.repeat(CUT_IMAGE_MAX_BASE64 + 4)}`;
    const [kept, cut] = cutRows(
      table,
      [{ picture: small }, { picture: big, name: 'n'.repeat(200) }],
      100,
      '-name',
    );
    expect(kept?.picture).toBe(small);
    expect(ROW_CUT_KEY in (kept ?? {})).toBe(false);
    expect(String(cut?.picture)).toHaveLength(CUT_IMAGE_MAX_BASE64);
    expect(cut?.name).toHaveLength(200);
    expect(cutLengthsOf(cut ?? {})).toEqual({ picture: ((CUT_IMAGE_MAX_BASE64 + 4) / 4) * 3 });
  });

  it('cuts nothing on a table with a column named $cut, which is then a column to write', () => {
    const odd = tableOf([column('code', 'Text'), column(ROW_CUT_KEY, 'Text'), column('name', 'Text')]);
    const [row] = cutRows(odd, [{ code: 'a', [ROW_CUT_KEY]: 'b', name: 'n'.repeat(500) }], 100, null);
    expect(row?.name).toHaveLength(500);
    expect(() => refuseCutRow(odd, { code: 'a', [ROW_CUT_KEY]: 'c' })).not.toThrow();
    expect(() => refuseCutRow(table, { code: 'a', [ROW_CUT_KEY]: 'c' })).toThrow(/cut short/);
  });
});
