import type { ReactNode } from 'react';
import { Table } from '@mantine/core';
import classes from './table-info.module.css';

export interface Fact {
  label: string;
  value: ReactNode;
}

/** Label and value pairs as a two-column table (each label is its row's header). */
export function FactsTable({ facts, caption }: { facts: Fact[]; caption: string }) {
  return (
    <Table variant="vertical" layout="fixed" withTableBorder aria-label={caption}>
      <Table.Tbody>
        {facts.map((fact) => (
          <Table.Tr key={fact.label}>
            <Table.Th scope="row" className={classes.label}>
              {fact.label}
            </Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{fact.value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
