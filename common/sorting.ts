import type { TypeGroup } from '#common/contract/sql.ts';

/** Whether rows can be sorted by a column: not by binary data (the server refuses such a sort; the grid offers
 * none). */
export const isSortable = (column: { typeGroup: TypeGroup }): boolean =>
  column.typeGroup !== 'Binary' && column.typeGroup !== 'image';
