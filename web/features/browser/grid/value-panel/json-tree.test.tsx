import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderPage } from '#web/test/render-page.tsx';
import { parseJson, type JsonNode } from '#web/features/browser/grid/json-value.ts';
import { JSON_TREE_CHILDREN_LIMIT, JsonTree, jsonTreeMessages } from './json-tree.tsx';

const tree = (text: string): JsonNode => {
  const root = parseJson(text);
  if (!root) throw new Error('not JSON');
  return root;
};

const toggle = (name: RegExp) => screen.getByRole('button', { name });

describe('JsonTree', () => {
  it('opens two levels, and opens and closes objects and arrays by button', () => {
    renderPage(<JsonTree root={tree('{"name":"Ada","tags":["a","b"],"deep":{"more":{"x":1}}}')} />);
    expect(toggle(/^\{/).getAttribute('aria-expanded')).toBe('true');
    expect(toggle(/"tags":\s*\[/).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('"Ada"')).toBeTruthy();
    // The third level starts closed, with a summary.
    const more = toggle(/"more":\s*\{/);
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(more.textContent).toContain('1 key');
    expect(screen.queryByText('"x":', { exact: false })).toBeNull();
    fireEvent.click(more);
    expect(more.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('1')).toBeTruthy();

    // The toggles are native buttons (a Tab stop each; Enter and Space press them), named by their key.
    const tags = toggle(/"tags":\s*\[/);
    expect(tags.tagName).toBe('BUTTON');
    expect(tags.getAttribute('type')).toBe('button');
    fireEvent.click(tags);
    expect(tags.getAttribute('aria-expanded')).toBe('false');
    expect(tags.textContent).toContain('2 items');
    fireEvent.click(tags);
    expect(tags.getAttribute('aria-expanded')).toBe('true');
  });

  it('expands and collapses everything', () => {
    renderPage(<JsonTree root={tree('{"a":{"b":{"c":{"d":[1]}}}}')} />);
    fireEvent.click(screen.getByRole('button', { name: jsonTreeMessages.expandAll }));
    for (const button of screen.getAllByRole('button', { expanded: true })) expect(button).toBeTruthy();
    expect(screen.queryAllByRole('button', { expanded: false })).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: jsonTreeMessages.collapseAll }));
    expect(screen.queryAllByRole('button', { expanded: true })).toHaveLength(0);
    expect(screen.getByRole('button', { expanded: false }).textContent).toContain('1 key');
  });

  it('shows a scalar root alone and cuts long arrays', () => {
    renderPage(<JsonTree root={tree('42')} />);
    expect(screen.getByText('42')).toBeTruthy();
    expect(screen.queryByRole('button', { name: jsonTreeMessages.expandAll })).toBeNull();
    const items = Array.from({ length: JSON_TREE_CHILDREN_LIMIT + 3 }, (_, i) => i);
    renderPage(<JsonTree root={tree(JSON.stringify(items))} />);
    expect(screen.getByText(jsonTreeMessages.more(3))).toBeTruthy();
  });
});
