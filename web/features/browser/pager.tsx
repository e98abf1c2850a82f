import { useState, type FormEvent } from 'react';
import { ActionIcon, Group, NativeSelect, Text, TextInput } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconChevronsLeft, IconChevronsRight } from '@tabler/icons-react';
import { PAGE_SIZES } from '#common/limits.ts';
import { pageCountOf } from '#web/ui/page-count.ts';
import classes from './pager.module.css';

const numberFormat = new Intl.NumberFormat('en-US');

export { pageCountOf };

/** "1,234 rows", "1 row", or "about 10,000,000 rows" when the count is the engine's estimate. */
export function rowCountText(count: number, exact: boolean): string {
  const rows = `${numberFormat.format(count)} ${count === 1 ? 'row' : 'rows'}`;
  return exact ? rows : `about ${rows}`;
}

/** What the Page input says when the number typed is not a page (spec 000 §5: only 1 to the page count). */
export function pageRangeMessage(pageCount: number): string {
  return pageCount === 1
    ? 'There is only page 1.'
    : `Enter a page from 1 to ${numberFormat.format(pageCount)}.`;
}

export interface PagerProps {
  page: number;
  size: number;
  /** Matching rows; null while the first page of a search is loading. */
  count: number | null;
  countIsExact: boolean;
  onPageChange: (page: number) => void;
  /** A new size goes back to page 1 (the caller does that). */
  onSizeChange: (size: number) => void;
}

/**
 * The pager (spec 000 §2, §5, §9): rows per page (20 to 100), first, previous, next and last, a page-number entry
 * that takes only 1 to the page count, "Page X of Y" and the row count (marked "about" when it is an estimate).
 */
export function Pager({ page, size, count, countIsExact, onPageChange, onSizeChange }: PagerProps) {
  const pageCount = count === null ? null : pageCountOf(count, size);
  const lastKnown = pageCount ?? page;

  return (
    <Group component="nav" aria-label="Pages" justify="space-between" gap="sm" wrap="wrap">
      <NativeSelect
        label="Rows per page"
        size="xs"
        data={PAGE_SIZES.map(String)}
        value={String(size)}
        onChange={(event) => onSizeChange(Number(event.currentTarget.value))}
        styles={{
          root: { display: 'flex', alignItems: 'center', gap: 8 },
          label: { whiteSpace: 'nowrap' },
          input: { width: 72 },
        }}
      />

      <Group gap={4} wrap="nowrap" align="flex-start">
        <PageButton label="First page" disabled={page <= 1} onClick={() => onPageChange(1)}>
          <IconChevronsLeft size={16} aria-hidden="true" />
        </PageButton>
        <PageButton label="Previous page" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
          <IconChevronLeft size={16} aria-hidden="true" />
        </PageButton>
        {/* Keyed by the page shown: after any page change the entry starts again from it, without a stale draft. */}
        <PageEntry
          key={`${page}/${lastKnown}`}
          page={page}
          pageCount={pageCount}
          onPageChange={onPageChange}
        />
        <PageButton
          label="Next page"
          disabled={pageCount === null || page >= pageCount}
          onClick={() => onPageChange(page + 1)}
        >
          <IconChevronRight size={16} aria-hidden="true" />
        </PageButton>
        <PageButton
          label="Last page"
          disabled={pageCount === null || page >= pageCount}
          onClick={() => pageCount !== null && onPageChange(pageCount)}
        >
          <IconChevronsRight size={16} aria-hidden="true" />
        </PageButton>
      </Group>

      <Text size="sm" c="dimmed" aria-live="polite" style={{ whiteSpace: 'nowrap' }}>
        {pageCount === null ? (
          `Page ${numberFormat.format(page)}`
        ) : (
          <>
            Page {numberFormat.format(page)} of {numberFormat.format(pageCount)}
            {' · '}
            {rowCountText(count ?? 0, countIsExact)}
          </>
        )}
      </Text>
    </Group>
  );
}

function PageButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <ActionIcon variant="default" size={30} aria-label={label} disabled={disabled} onClick={onClick}>
      {children}
    </ActionIcon>
  );
}

/** The page-number entry: Enter (or leaving it) goes to the page typed when it is one; otherwise it puts the page
 * shown back in the box and says which pages there are, in a message above the box (the pager sits at the bottom of
 * the card, often at the window's edge, where a message under the box went unseen: issue 32). */
function PageEntry({
  page,
  pageCount,
  onPageChange,
}: {
  page: number;
  pageCount: number | null;
  onPageChange: (page: number) => void;
}) {
  // A text input kept to digits (and the thousands commas it shows), not Mantine's NumberInput: that one brings
  // react-number-format (15 KB) onto the browser's first load.
  const [draft, setDraft] = useState(() => numberFormat.format(page));
  const [error, setError] = useState<string | null>(null);

  const apply = () => {
    const text = draft.replaceAll(',', '').trim();
    if (text === String(page)) {
      setError(null);
      return;
    }
    const wanted = Number(text);
    const max = pageCount ?? page;
    if (text === '' || !Number.isInteger(wanted) || wanted < 1 || wanted > max) {
      setError(pageRangeMessage(max));
      setDraft(numberFormat.format(page));
      return;
    }
    setError(null);
    onPageChange(wanted);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply();
  };

  return (
    <form onSubmit={submit} noValidate>
      <TextInput
        aria-label="Page"
        size="xs"
        w={84}
        inputMode="numeric"
        autoComplete="off"
        value={draft}
        onChange={(event) => {
          setDraft(event.currentTarget.value.replace(/[^\d,]/g, ''));
          setError(null);
        }}
        onBlur={() => {
          if (draft.replaceAll(',', '').trim() !== String(page)) apply();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            setDraft(numberFormat.format(page));
            setError(null);
          }
        }}
        error={error}
        // Said at once, and shown as a bubble above the box (styles), where the window's edge cannot hide it.
        errorProps={{ role: 'alert' }}
        classNames={{ root: classes.pageEntry, error: classes.pageRange }}
      />
    </form>
  );
}
