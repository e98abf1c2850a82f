import { Box, Group, Paper, Text } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { sampleRows } from '#common/content/home.ts';
import classes from './home-table-preview.module.css';

/** A still picture of the table browser; decoration only, so assistive technology skips it. */
export function HomeTablePreview() {
  return (
    <Paper
      shadow="xl"
      radius="lg"
      withBorder
      p="md"
      aria-hidden="true"
      className={classes.preview}
      style={{ pointerEvents: 'none' }}
    >
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Group gap={6}>
          {['red.4', 'yellow.4', 'green.4'].map((color) => (
            <Box key={color} w={10} h={10} bg={color} style={{ borderRadius: '50%' }} />
          ))}
        </Group>
        <Text size="xs" c="dimmed" ff="monospace">
          shop / public / orders
        </Text>
      </Group>
      <div className={classes.search}>
        <span className={classes.searchIcon}>
          <IconSearch size={14} />
        </span>
        Search customer…
      </div>
      <table className={classes.table}>
        <thead>
          <tr>
            <th>id</th>
            <th>customer</th>
            <th>country</th>
            <th className={classes.total}>total</th>
          </tr>
        </thead>
        <tbody>
          {sampleRows.map((row) => (
            <tr key={row.id}>
              <td className={classes.id}>{row.id}</td>
              <td>{row.customer}</td>
              <td>{row.country}</td>
              <td className={classes.total}>{row.total}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Text size="xs" c="dimmed" mt="sm">
        Rows 1–5 of 1,204,337 · page 1 of 240,868
      </Text>
    </Paper>
  );
}
