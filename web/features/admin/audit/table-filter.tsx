import { useMemo } from 'react';
import { Select } from '@mantine/core';
import { tableOfId } from '#common/links.ts';
import { useAdminTables } from '#web/api/admin/tables.ts';

export interface TableFilterProps {
  /** A TableId. */
  table: string | null;
  onChange: (table: string | null) => void;
}

const labelOf = (tableId: string) => {
  const names = tableOfId(tableId);
  return names ? `${names.database}.${names.schema}.${names.table}` : tableId;
};

/** The filter "Table": a searchable select of every table (db.schema.table), valued by TableId. */
export function TableFilter({ table, onChange }: TableFilterProps) {
  const tables = useAdminTables();
  const data = useMemo(() => {
    const options = (tables.data ?? []).map((t) => ({
      value: t.TableId,
      label: `${t.database}.${t.schema}.${t.name}`,
    }));
    // A table from the address that the list no longer has (dropped since) still shows.
    if (table !== null && !options.some((o) => o.value === table))
      options.unshift({ value: table, label: labelOf(table) });
    return options;
  }, [tables.data, table]);

  return (
    <Select
      label="Table"
      placeholder="Any table"
      searchable
      clearable
      limit={100}
      data={data}
      value={table}
      onChange={onChange}
      nothingFoundMessage={tables.isPending ? 'Loading tables…' : 'No table matches.'}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
