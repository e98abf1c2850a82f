import { useMemo, useState } from 'react';
import { Button, Group } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import type { JsonNode } from '#web/features/browser/grid/json-value.ts';
import classes from './value-panel.module.css';

/** The tree's own sentences. */
export const jsonTreeMessages = {
  label: 'JSON value',
  expandAll: 'Expand all',
  collapseAll: 'Collapse all',
  more: (count: number) => `… ${count.toLocaleString('en-US')} more`,
  items: (count: number) => (count === 1 ? '1 item' : `${count.toLocaleString('en-US')} items`),
  keys: (count: number) => (count === 1 ? '1 key' : `${count.toLocaleString('en-US')} keys`),
} as const;

/** A container shows at most this many children (a JSON array of a million items would hang the tab). */
export const JSON_TREE_CHILDREN_LIMIT = 500;
/** Levels open when the tree first shows. */
const OPEN_LEVELS = 2;

type Container = Extract<JsonNode, { kind: 'object' | 'array' }>;
const isContainer = (node: JsonNode): node is Container => node.kind === 'object' || node.kind === 'array';

/** Children of a container as [label, node] pairs: keys of an object, indexes of an array. */
const childrenOf = (node: Container): [string, JsonNode][] =>
  node.kind === 'object' ? node.entries : node.items.map((item, index) => [String(index), item]);

/** The paths ("" for the root, "/0/name" below it) of every container within `levels` levels (all: Infinity). */
function containerPaths(root: JsonNode, levels: number): Set<string> {
  const paths = new Set<string>();
  const walk = (node: JsonNode, path: string, depth: number) => {
    if (!isContainer(node) || depth >= levels) return;
    paths.add(path);
    childrenOf(node)
      .slice(0, JSON_TREE_CHILDREN_LIMIT)
      .forEach(([label, child]) => walk(child, `${path}/${label}`, depth + 1));
  };
  walk(root, '', 0);
  return paths;
}

function Scalar({ node }: { node: Exclude<JsonNode, Container> }) {
  if (node.kind === 'string') return <span className={classes.jsonString}>{JSON.stringify(node.value)}</span>;
  if (node.kind === 'number') return <span className={classes.jsonNumber}>{node.text}</span>;
  return <span className={classes.jsonLiteral}>{node.text}</span>;
}

interface NodeProps {
  label: string | null;
  /** Object keys are quoted; array indexes are not. */
  quoted: boolean;
  node: JsonNode;
  path: string;
  open: Set<string>;
  toggle: (path: string) => void;
}

function TreeNode({ label, quoted, node, path, open, toggle }: NodeProps) {
  const name =
    label === null ? null : (
      <span className={classes.jsonKey}>{quoted ? JSON.stringify(label) : label}: </span>
    );
  if (!isContainer(node)) {
    return (
      <li className={classes.jsonLine}>
        {name}
        <Scalar node={node} />
      </li>
    );
  }
  const children = childrenOf(node);
  const [start, end] = node.kind === 'object' ? ['{', '}'] : ['[', ']'];
  const summary =
    node.kind === 'object' ? jsonTreeMessages.keys(children.length) : jsonTreeMessages.items(children.length);
  if (children.length === 0) {
    return (
      <li className={classes.jsonLine}>
        {name}
        {start}
        {end}
      </li>
    );
  }
  const expanded = open.has(path);
  const Chevron = expanded ? IconChevronDown : IconChevronRight;
  return (
    <li className={classes.jsonLine}>
      <button
        type="button"
        className={classes.jsonToggle}
        aria-expanded={expanded}
        onClick={() => toggle(path)}
      >
        <Chevron size={14} aria-hidden />
        {name}
        {start}
        {!expanded && (
          <span className={classes.jsonSummary}>
            {' '}
            {summary} {end}
          </span>
        )}
      </button>
      {expanded && (
        <>
          <ul className={classes.jsonChildren}>
            {children.slice(0, JSON_TREE_CHILDREN_LIMIT).map(([childLabel, child]) => (
              <TreeNode
                key={childLabel}
                label={childLabel}
                quoted={node.kind === 'object'}
                node={child}
                path={`${path}/${childLabel}`}
                open={open}
                toggle={toggle}
              />
            ))}
            {children.length > JSON_TREE_CHILDREN_LIMIT && (
              <li className={classes.jsonSummary}>
                {jsonTreeMessages.more(children.length - JSON_TREE_CHILDREN_LIMIT)}
              </li>
            )}
          </ul>
          <span className={classes.jsonClose}>{end}</span>
        </>
      )}
    </li>
  );
}

/**
 * A JSON value as a tree (docs/decisions/0064-rich-values.md): objects and arrays open and close with a button each
 * (the disclosure pattern: a Tab stop, Enter or Space, aria-expanded), the first two levels open; Expand all and
 * Collapse all above it. Numbers keep the text they were written with.
 */
export function JsonTree({ root }: { root: JsonNode }) {
  const [open, setOpen] = useState(() => containerPaths(root, OPEN_LEVELS));
  const everything = useMemo(() => (isContainer(root) ? containerPaths(root, Infinity) : null), [root]);
  const toggle = (path: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });
  return (
    <div>
      {everything && (
        <Group gap="xs" mb="xs">
          <Button size="compact-sm" variant="default" onClick={() => setOpen(new Set(everything))}>
            {jsonTreeMessages.expandAll}
          </Button>
          <Button size="compact-sm" variant="default" onClick={() => setOpen(new Set())}>
            {jsonTreeMessages.collapseAll}
          </Button>
        </Group>
      )}
      <ul className={classes.jsonTree} aria-label={jsonTreeMessages.label}>
        <TreeNode label={null} quoted={false} node={root} path="" open={open} toggle={toggle} />
      </ul>
    </div>
  );
}
