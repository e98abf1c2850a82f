import { Box, Button } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { hasFilters, type AuditFilters as Filters } from './audit-address.ts';
import { ActionsFilter } from './actions-filter.tsx';
import { AuditDateInput } from './audit-date-input.tsx';
import { TableFilter } from './table-filter.tsx';
import { UserFilter } from './user-filter.tsx';
import classes from './audit-filters.module.css';

export interface AuditFiltersProps {
  filters: Filters;
  onChange: (change: Partial<Filters>) => void;
  onClear: () => void;
}

/** The form "Audit filters": user, table, actions and a time span; each change applies at once (and to the
 * address). */
export function AuditFilters({ filters, onChange, onClear }: AuditFiltersProps) {
  return (
    <form aria-label="Audit filters" onSubmit={(event) => event.preventDefault()}>
      <div className={classes.grid}>
        <UserFilter userId={filters.userId} onChange={(userId) => onChange({ userId })} />
        <TableFilter table={filters.table} onChange={(table) => onChange({ table })} />
        <Box className={classes.actions}>
          <ActionsFilter actions={filters.actions} onChange={(actions) => onChange({ actions })} />
        </Box>
        <Box className={classes.date}>
          <AuditDateInput
            label="From"
            value={filters.from}
            maxDate={filters.to}
            onChange={(from) => onChange({ from })}
          />
        </Box>
        <Box className={classes.date}>
          <AuditDateInput
            label="To"
            value={filters.to}
            minDate={filters.from}
            onChange={(to) => onChange({ to })}
          />
        </Box>
        <div>
          <Button
            variant="default"
            leftSection={<IconFilterOff size={16} aria-hidden />}
            onClick={onClear}
            disabled={!hasFilters(filters)}
          >
            Clear filters
          </Button>
        </div>
      </div>
    </form>
  );
}
