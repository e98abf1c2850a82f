import { describe, expect, it } from 'vitest';
import { formMessages } from '#common/messages.ts';
import { editorMessages } from './editor-messages.ts';
import { ada, column, customersTable, productTagsTable } from './editor-test-table.ts';
import {
  copyRow,
  deleteBody,
  emptyRow,
  fieldError,
  fieldKind,
  fieldWidth,
  formSections,
  numberFormat,
  rowErrors,
  rowFields,
  upsertBody,
} from './row-fields.ts';

const byName = (fields: ReturnType<typeof rowFields>, name: string) => {
  const field = fields.find((f) => f.column.name === name);
  if (!field) throw new Error(name);
  return field;
};

describe('field kind by column (spec 000 §5)', () => {
  it('bit is a switch, image an image picker, a foreign key a combobox', () => {
    expect(fieldKind(column(1, 'b', { typeGroup: 'bit', type: 'bit' }))).toBe('switch');
    expect(fieldKind(column(1, 'i', { typeGroup: 'image', type: 'image' }))).toBe('image');
    expect(fieldKind(column(1, 'f', { isForeignKey: true, typeGroup: 'Number', type: 'int' }))).toBe(
      'combobox',
    );
  });

  it('dates and times get pickers: a date alone, a date and time, a time', () => {
    expect(fieldKind(column(1, 'd', { typeGroup: 'Date', type: 'date' }))).toBe('date');
    expect(fieldKind(column(1, 'd', { typeGroup: 'Date', type: 'datetime2' }))).toBe('datetime');
    expect(fieldKind(column(1, 'd', { typeGroup: 'Date', type: 'datetimeoffset' }))).toBe('datetime');
    expect(fieldKind(column(1, 't', { typeGroup: 'Time', type: 'time' }))).toBe('time');
  });

  it('numbers get a number input', () => {
    expect(fieldKind(column(1, 'n', { typeGroup: 'Number', type: 'decimal' }))).toBe('number');
  });

  it('unlimited text and text over 500 characters are an 8-row textarea, else a textbox', () => {
    expect(fieldKind(column(1, 't', { maxLength: -1 }))).toBe('textarea');
    expect(fieldKind(column(1, 't', { maxLength: 501 }))).toBe('textarea');
    expect(fieldKind(column(1, 't', { maxLength: 500 }))).toBe('text');
    expect(fieldKind(column(1, 't', { maxLength: 20 }))).toBe('text');
  });
});

describe('groups (spec 000 §2: image, combobox, number, text, textarea, checkbox)', () => {
  it('orders the fields by group, each group in the table order', () => {
    const fields = rowFields(customersTable(), 'edit');
    expect(fields.map((f) => [f.group, f.column.name])).toEqual([
      ['image', 'photo'],
      ['combobox', 'country_code'],
      ['number', 'customer_id'],
      ['number', 'loyalty_points'],
      ['number', 'credit_limit'],
      ['text', 'customer_guid'],
      ['text', 'first_name'],
      ['text', 'email'],
      ['text', 'birth_date'],
      ['text', 'preferred_contact_time'],
      ['text', 'created_at'],
      ['text', 'last_login_at'],
      ['text', 'full_name'],
      ['textarea', 'notes'],
      ['checkbox', 'is_active'],
    ]);
  });

  it('lets inputs of one height share lines, and starts images, textareas and switches on their own', () => {
    const sections = formSections(rowFields(customersTable(), 'add'));
    expect(sections.map((s) => [s.section, s.fields.length])).toEqual([
      ['image', 1],
      ['inputs', 12],
      ['textarea', 1],
      ['checkbox', 1],
    ]);
    expect(formSections(rowFields(productTagsTable(), 'add')).map((s) => s.section)).toEqual(['inputs']);
  });
});

describe('a new row (issue 32: it shows what a save stores)', () => {
  it("starts with each column's constant default, a NOT NULL bit without one off, the rest empty", () => {
    const flag = column(16, 'flag', { type: 'bit', typeGroup: 'bit', isNullable: false });
    const maybe = column(17, 'maybe', { type: 'bit', typeGroup: 'bit' });
    const row = emptyRow(customersTable({}, [...customersTable().columns, flag, maybe]));
    expect(row.loyalty_points).toBe(0);
    expect(row.is_active).toBe(true);
    expect(row.flag).toBe(false);
    expect(row.maybe).toBeNull();
    expect(row.customer_id).toBeNull();
    expect(row.first_name).toBeNull();
  });
});

describe('grid width (spec 000 §5)', () => {
  it('text and comboboxes under 50 characters sit in the 2-column grid, others in the 3-column grid', () => {
    expect(fieldWidth(column(1, 't', { maxLength: 49 }))).toBe(2);
    expect(fieldWidth(column(1, 't', { maxLength: 50 }))).toBe(3);
    expect(fieldWidth(column(1, 't', { maxLength: -1 }))).toBe(3);
    expect(fieldWidth(column(1, 'f', { isForeignKey: true, maxLength: 2 }))).toBe(2);
    expect(fieldWidth(column(1, 'f', { isForeignKey: true, maxLength: 100 }))).toBe(3);
    expect(fieldWidth(column(1, 'n', { typeGroup: 'Number', type: 'int', maxLength: 0 }))).toBe(3);
    // A guid or other text without a length (maxLength 0) is as wide as the long ones.
    expect(fieldWidth(column(1, 'g', { typeGroup: 'guid', type: 'uuid', maxLength: 0 }))).toBe(3);
  });
});

describe('number format (spec 000 §5: step 10^-scale, exactly scale decimals)', () => {
  it('decimal(10,2) and money: step 0.01 and 2 decimals', () => {
    expect(
      numberFormat(column(1, 'n', { typeGroup: 'Number', type: 'decimal', precision: 10, scale: 2 })),
    ).toEqual({
      step: 0.01,
      decimalScale: 2,
      allowDecimal: true,
    });
    expect(
      numberFormat(column(1, 'n', { typeGroup: 'Number', type: 'numeric', precision: 5, scale: 4 })).step,
    ).toBe(0.0001);
  });

  it('whole numbers take no decimals; floats and unconstrained numerics take any', () => {
    expect(numberFormat(column(1, 'n', { typeGroup: 'Number', type: 'int' }))).toEqual({
      step: 1,
      decimalScale: 0,
      allowDecimal: false,
    });
    expect(numberFormat(column(1, 'n', { typeGroup: 'Number', type: 'real' })).decimalScale).toBeUndefined();
    expect(
      numberFormat(column(1, 'n', { typeGroup: 'Number', type: 'numeric', precision: 0 })).allowDecimal,
    ).toBe(true);
  });
});

describe('read-only columns (spec 000 §4)', () => {
  it('guid, identity, hidden and computed are read-only when adding; foreign keys are not', () => {
    const fields = rowFields(customersTable(), 'add');
    const readOnly = fields.filter((f) => f.readOnly).map((f) => f.column.name);
    expect(readOnly).toEqual(['customer_id', 'customer_guid', 'full_name']);
    expect(
      byName(rowFields(customersTable({}, [column(1, 'h', { isHidden: true })]), 'add'), 'h').readOnly,
    ).toBe(true);
  });

  it('an existing row also has its foreign-key columns read-only', () => {
    const fields = rowFields(customersTable(), 'edit');
    expect(byName(fields, 'country_code').readOnly).toBe(true);
    expect(byName(fields, 'first_name').readOnly).toBe(false);
  });

  it('every column of an existing row is read-only when the table has no identity or guid', () => {
    expect(rowFields(productTagsTable(), 'edit').every((f) => f.readOnly)).toBe(true);
    expect(rowFields(productTagsTable(), 'add').every((f) => !f.readOnly)).toBe(true);
  });

  it('without the right to write, every column is read-only', () => {
    expect(rowFields(customersTable(), 'edit', false).every((f) => f.readOnly)).toBe(true);
  });
});

describe('validation (spec 000 §5)', () => {
  const fields = rowFields(customersTable(), 'add');

  it("'{Column} is required.' for an empty non-nullable column", () => {
    expect(fieldError(byName(fields, 'first_name'), null)).toBe(formMessages.required('first_name'));
    expect(fieldError(byName(fields, 'first_name'), 'Ada')).toBeUndefined();
  });

  it('not for bit, read-only columns, or (on a new row) a column the database fills in', () => {
    expect(fieldError(byName(fields, 'is_active'), null)).toBeUndefined();
    expect(fieldError(byName(fields, 'customer_id'), null)).toBeUndefined();
    expect(fieldError(byName(fields, 'full_name'), null)).toBeUndefined();
    const stamped = column(1, 'stamped', {
      type: 'datetime2',
      typeGroup: 'Date',
      isNullable: false,
      defaultValue: '(sysutcdatetime())',
      defaultIsExpression: true,
    });
    const [added] = rowFields(customersTable({}, [stamped]), 'add');
    expect(added?.setByDatabase).toBe(true);
    expect(fieldError(added!, null)).toBeUndefined();
    // A constant default starts in the field (a new row shows it), so emptying it is refused like any value; an
    // existing row cannot take an empty value there either.
    expect(fieldError(byName(fields, 'loyalty_points'), null)).toBe(formMessages.required('loyalty_points'));
    const editFields = rowFields(customersTable(), 'edit');
    expect(fieldError(byName(editFields, 'loyalty_points'), null)).toBe(
      formMessages.required('loyalty_points'),
    );
    expect(rowFields(customersTable({}, [stamped]), 'edit')[0]?.setByDatabase).toBe(false);
  });

  it("'{Column} cannot be more than {n} characters.' counts characters as the server does", () => {
    expect(fieldError(byName(fields, 'first_name'), 'x'.repeat(51))).toBe(
      formMessages.tooLong('first_name', 50),
    );
    expect(fieldError(byName(fields, 'first_name'), '😀'.repeat(50))).toBeUndefined();
  });

  it('rowErrors names every invalid field', () => {
    expect(
      rowErrors(fields, {
        first_name: null,
        email: 'a@b.c',
        country_code: null,
        created_at: null,
        loyalty_points: 0,
      }),
    ).toEqual({
      first_name: formMessages.required('first_name'),
      country_code: formMessages.required('country_code'),
      created_at: formMessages.required('created_at'),
    });
  });

  it('text left in a foreign-key field that names no option is an error of its own (issue 32)', () => {
    const errors = rowErrors(fields, { ...ada, country_code: 'GB' }, { country_code: 'Atlantis' });
    expect(errors).toEqual({ country_code: editorMessages.notAnOption('Atlantis') });
  });
});

describe('copy (spec 000 §4)', () => {
  it('clears identity, guid and the other read-only columns, and keeps the rest', () => {
    const copy = copyRow(customersTable(), ada);
    expect(copy.customer_id).toBeNull();
    expect(copy.customer_guid).toBeNull();
    expect(copy.full_name).toBeNull();
    expect(copy.first_name).toBe('Ada');
    expect(copy.country_code).toBe('GB');
  });
});

describe('the bodies sent', () => {
  it('a new row: every column a person fills in, without read-only ones and empty ones the database fills', () => {
    const stamped = column(16, 'stamped', {
      type: 'datetime2',
      typeGroup: 'Date',
      isNullable: false,
      defaultValue: '(sysutcdatetime())',
      defaultIsExpression: true,
    });
    const table = customersTable({}, [...customersTable().columns, stamped]);
    const values = { ...copyRow(table, ada), loyalty_points: null, is_active: true, stamped: null };
    const body = upsertBody(table, 'add', values, {});
    expect(body).not.toHaveProperty('customer_id');
    expect(body).not.toHaveProperty('customer_guid');
    expect(body).not.toHaveProperty('full_name');
    expect(body).not.toHaveProperty('stamped');
    // A constant default was shown in its field: what the field holds is sent, emptied or not.
    expect(body.loyalty_points).toBeNull();
    expect(body.is_active).toBe(true);
    expect(body.first_name).toBe('Ada');
    expect(body.notes).toBeNull();
  });

  it('an existing row: its key and the changed columns only', () => {
    const body = upsertBody(
      customersTable(),
      'edit',
      { ...ada, first_name: 'Augusta', credit_limit: '1500.50' },
      ada,
    );
    expect(body).toEqual({ customer_id: 7, first_name: 'Augusta' });
  });

  it('a delete sends the key', () => {
    expect(deleteBody(customersTable(), ada)).toEqual({ customer_id: 7 });
    expect(deleteBody(productTagsTable(), { product_id: 1, tag_id: 2, added_on: '2024-01-01' })).toEqual({
      product_id: 1,
      tag_id: 2,
    });
  });
});
