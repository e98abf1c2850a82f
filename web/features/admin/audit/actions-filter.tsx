import { useMemo } from 'react';
import { MultiSelect } from '@mantine/core';
import { auditActionGroups, auditActionLabel } from '#web/features/admin/audit-entry-text.ts';

export interface ActionsFilterProps {
  actions: string[];
  onChange: (actions: string[]) => void;
}

const known = auditActionGroups.map(({ group, actions }) => ({
  group,
  items: Object.entries(actions).map(([value, label]) => ({ value, label })),
}));
const knownValues = new Set(known.flatMap((g) => g.items.map((i) => i.value)));

/** The filter "Actions": the known actions grouped (Data changes, Sign-in, Account, Administration), any number. */
export function ActionsFilter({ actions, onChange }: ActionsFilterProps) {
  const data = useMemo(() => {
    // An action from the address this list does not know still shows, as it is.
    const other = actions.filter((a) => !knownValues.has(a));
    return other.length
      ? [
          ...known,
          { group: 'Other', items: other.map((value) => ({ value, label: auditActionLabel(value) })) },
        ]
      : known;
  }, [actions]);

  return (
    <MultiSelect
      label="Actions"
      placeholder={actions.length ? undefined : 'Any action'}
      searchable
      clearable
      data={data}
      value={actions}
      onChange={onChange}
      nothingFoundMessage="No action matches."
      comboboxProps={{ withinPortal: true }}
    />
  );
}
