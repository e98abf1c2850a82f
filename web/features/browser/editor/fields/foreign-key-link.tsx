import type { MouseEvent } from 'react';
import { Anchor } from '@mantine/core';
import { IconArrowUpRight } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import type { CellValue } from '#common/contract/sql.ts';
import { useForeignKeyChoices } from '#web/api/sql/foreign-keys.ts';
import type { TableRef } from '#web/api/sql/paths.ts';
import { rowAddressUrl } from '#web/features/browser/browser-address.ts';
import { sameValue } from '#web/features/browser/editor/row-fields.ts';

/*
 * Under a foreign-key field, a link to the row its key names, in that row's own table (issue 37, decision 0067): the
 * editor's way on from a row to the rows it points at, as the grid's linked cells are. Built from the lookup the
 * field already makes for its label (the same query, no call of its own); shown only when the person may read the
 * referenced table and the key names a row there. Following it is a push (Back returns to this row).
 */

/** The address and words of the link for a foreign-key field's value, or null when there is none to show. */
export function useForeignKeyLink(tableRef: TableRef, column: string, value: CellValue) {
  const term = value === null ? '' : String(value);
  const lookup = useForeignKeyChoices({ ...tableRef, column, term }, value !== null);
  const first = lookup.data?.pages[0];
  if (value === null || typeof value === 'boolean' || !first?.canReadReferencedTable) return null;
  const option = lookup.data?.pages.flatMap((page) => page.options).find((o) => sameValue(o.key, value));
  if (!option) return null;
  return {
    href: rowAddressUrl(
      tableRef.db,
      { schema: first.referencedSchema, name: first.referencedTable },
      { [first.referencedColumn]: value },
    ),
    text: `Open ${option.label} in ${first.referencedTable}`,
  };
}

/** The link itself (for the field's description). */
export function ForeignKeyLink({ link }: { link: { href: string; text: string } }) {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate(link.href);
  };
  return (
    <Anchor href={link.href} onClick={onClick} size="xs" data-fk-open="">
      {link.text}
      <IconArrowUpRight size={12} aria-hidden="true" style={{ verticalAlign: 'middle', marginLeft: 2 }} />
    </Anchor>
  );
}
