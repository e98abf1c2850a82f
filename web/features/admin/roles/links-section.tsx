import { useId, useMemo, useState } from 'react';
import { ActionIcon, Button, Collapse, Group, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconChevronDown, IconPlus, IconTrash } from '@tabler/icons-react';
import type { Role } from '#common/contract/admin.ts';
import type { AdminTable } from '#web/api/admin/tables.ts';
import { addLink, coverageText, coveredTables, draftLinks } from './role-draft.ts';
import classes from './roles.module.css';

/** How many covered tables a link's preview lists before "and N more". */
const PREVIEW_TABLES = 50;

export interface LinksSectionProps {
  draft: Role;
  /** Every table (GET /api/admin/tables); undefined while loading. */
  tables: AdminTable[] | undefined;
  onChange: (draft: Role) => void;
  onRemove: (index: number) => void;
  /** The saved link being removed, by Id. */
  removingId: number | null;
  /** A rule the last save attempt found broken. */
  problem?: string;
}

/**
 * The role's links (spec 000 §5, §6): each with a live preview of the tables it covers (their browser paths
 * /db/{TableId} matched by the shared link matcher, common/links.ts), a toggle listing them, and Remove; a New link
 * box with Add link, checked with the shared linkField rule and the duplicate rule ('Some links are duplicates.').
 */
export function LinksSection({ draft, tables, onChange, onRemove, removingId, problem }: LinksSectionProps) {
  const titleId = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const links = draftLinks(draft);
  const allCovered = useMemo(() => (tables ? coveredTables(links, tables).length : null), [links, tables]);

  const add = () => {
    const result = addLink(draft, text);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    setError(null);
    setText('');
    onChange(result.draft);
  };

  return (
    <Stack component="section" aria-labelledby={titleId} gap="xs">
      <Group justify="space-between" gap="xs">
        <Title order={3} fz="h5" id={titleId}>
          Links
        </Title>
        {tables && allCovered !== null && (
          <Text size="xs" c="dimmed">
            Together they cover {allCovered} of {tables.length} tables
          </Text>
        )}
      </Group>
      {problem && (
        <Text size="sm" c="red" role="alert">
          {problem}
        </Text>
      )}
      {draft.Role_Links.length === 0 ? (
        <Text size="sm" c="dimmed">
          No links yet: a link such as /db/chinook/* lets the role’s users open those pages.
        </Text>
      ) : (
        <ul aria-label="Links" className={classes.list}>
          {draft.Role_Links.map((link, index) => (
            <LinkItem
              key={link.Id > 0 ? `saved-${link.Id}` : `new-${index}-${link.Link}`}
              link={link.Link}
              tables={tables}
              removing={link.Id > 0 && link.Id === removingId}
              onRemove={() => onRemove(index)}
            />
          ))}
        </ul>
      )}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
      >
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            label="New link"
            placeholder="/db/chinook/*"
            description="* for everything, or a path; a last segment * covers everything below it"
            value={text}
            error={error}
            onChange={(event) => {
              setText(event.currentTarget.value);
              if (error) setError(null);
            }}
            autoComplete="off"
            spellCheck={false}
            style={{ flex: 1 }}
            classNames={{ input: classes.code }}
          />
          <Button
            type="submit"
            variant="light"
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            mt={{ base: 46, xs: 46 }}
          >
            Add link
          </Button>
        </Group>
      </form>
    </Stack>
  );
}

function LinkItem({
  link,
  tables,
  removing,
  onRemove,
}: {
  link: string;
  tables: AdminTable[] | undefined;
  removing: boolean;
  onRemove: () => void;
}) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const covered = useMemo(() => (tables ? coveredTables([link], tables) : null), [link, tables]);
  const count = covered?.length ?? 0;

  return (
    <li className={classes.item}>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Text className={classes.code}>{link}</Text>
          <Group gap="xs">
            <Text size="xs" c="dimmed">
              {covered === null ? 'covers … (reading the tables)' : coverageText(count)}
            </Text>
            {count > 0 && (
              <Button
                variant="default"
                size="compact-xs"
                aria-label={`Show tables for ${link}`}
                aria-expanded={open}
                aria-controls={listId}
                onClick={() => setOpen((value) => !value)}
                rightSection={
                  <IconChevronDown
                    size={14}
                    aria-hidden="true"
                    style={{ transform: open ? 'rotate(180deg)' : undefined, transition: 'transform 150ms' }}
                  />
                }
              >
                Show tables
              </Button>
            )}
          </Group>
        </Stack>
        <Tooltip label="Remove link">
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove link ${link}`}
            loading={removing}
            onClick={onRemove}
          >
            <IconTrash size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Group>
      {covered !== null && count > 0 && (
        <Collapse expanded={open} id={listId}>
          {open && (
            <ul className={classes.covered} aria-label={`Tables covered by ${link}`}>
              {covered.slice(0, PREVIEW_TABLES).map((table) => (
                <li key={table.TableId} className={classes.code}>
                  {table.database} · {table.schema}.{table.name}
                  {table.isView ? ' (view)' : ''}
                </li>
              ))}
              {count > PREVIEW_TABLES && <li>and {count - PREVIEW_TABLES} more</li>}
            </ul>
          )}
        </Collapse>
      )}
    </li>
  );
}
