import { useMemo, useState } from 'react';
import type { Column, Row, TableListItem } from '#common/contract/sql.ts';
import { notifications } from '@mantine/notifications';
import { DataGrid } from '#web/features/browser/grid/data-grid.tsx';

/** A sample column: nullable text unless told otherwise. */
function sampleColumn(id: number, name: string, extra: Partial<Column> = {}): Column {
  return {
    id,
    name,
    type: 'varchar',
    typeGroup: 'Text',
    maxLength: 100,
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
    ...extra,
  };
}

const columns: Column[] = [
  sampleColumn(1, 'TrackId', {
    type: 'integer',
    typeGroup: 'Number',
    maxLength: 0,
    isNullable: false,
    isIndexed: true,
    isIdentity: true,
    isPrimaryKey: true,
  }),
  sampleColumn(2, 'Name', { isNullable: false, isIndexed: true }),
  sampleColumn(3, 'Composer'),
  sampleColumn(4, 'Milliseconds', { type: 'integer', typeGroup: 'Number', maxLength: 0 }),
  sampleColumn(5, 'UnitPrice', {
    type: 'numeric',
    typeGroup: 'Number',
    maxLength: 0,
    precision: 10,
    scale: 2,
  }),
];

const sampleTable: TableListItem = {
  id: 'sample/main/Track',
  schema: 'main',
  name: 'Track',
  isView: false,
  numberOfColumns: columns.length,
  numberOfRows: 5,
  numberOfRowsIsEstimate: false,
  hasIdentity: true,
  hasGuid: false,
  primaryKey: ['TrackId'],
  identityColumn: 'TrackId',
  guidColumn: null,
  columns,
  indexes: [],
  foreignKeys: [],
  rights: { canInsert: false, canUpdate: false, canDelete: false },
};

const sampleRows: Row[] = [
  {
    TrackId: 1,
    Name: 'For Those About To Rock',
    Composer: 'Angus Young, Malcolm Young',
    Milliseconds: 343719,
    UnitPrice: '0.99',
  },
  { TrackId: 2, Name: 'Balls to the Wall', Composer: null, Milliseconds: 342562, UnitPrice: '0.99' },
  {
    TrackId: 3,
    Name: 'Fast As a Shark',
    Composer: 'F. Baltes, S. Kaufman',
    Milliseconds: 230619,
    UnitPrice: '0.99',
  },
  {
    TrackId: 4,
    Name: 'Restless and Wild',
    Composer: 'F. Baltes, R.A. Smith-Diesel',
    Milliseconds: 252051,
    UnitPrice: '1.29',
  },
  {
    TrackId: 5,
    Name: 'Princess of the Dawn',
    Composer: 'Deaffy & R.A. Smith-Diesel',
    Milliseconds: 375418,
    UnitPrice: '1.29',
  },
];

function compare(a: Row, b: Row, column: string): number {
  const x = a[column] ?? null;
  const y = b[column] ?? null;
  if (x === y) return 0;
  if (x === null) return -1;
  if (y === null) return 1;
  return typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
}

/** The database browser's own grid with a few Chinook-like rows, sorted here instead of by a server. */
export function SampleGrid() {
  const [sort, setSort] = useState<string | null>(null);
  const rows = useMemo(() => {
    if (!sort) return sampleRows;
    const descending = sort.startsWith('-');
    const column = descending ? sort.slice(1) : sort;
    return [...sampleRows].sort((a, b) => (descending ? -1 : 1) * compare(a, b, column));
  }, [sort]);
  return (
    <DataGrid
      table={sampleTable}
      rows={rows}
      sort={sort}
      onSortChange={setSort}
      onOpenRow={(row) =>
        notifications.show({
          color: 'green',
          message: `A row opens its editor in the browser (track ${String(row.TrackId)}).`,
        })
      }
      loading={false}
      stale={false}
    />
  );
}
