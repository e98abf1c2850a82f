import { z } from 'zod';
import { filterDocument, type Filter, type FilterValue } from './filter.ts';

/*
 * A row rule (issue 40, docs/decisions/0072-row-and-column-rights.md): the filter document of the filters work, whose
 * values may also be the signed-in user's own: `{ "$user": "username" | "email" | "id" }`, or an attribute an
 * administrator set on the user's page, `{ "$user": "attr.region" }`. A rule is stored as written and resolved for
 * each user when a call needs it: every `$user` value replaced by the user's, which gives a plain filter document
 * that the engines compile into the WHERE of the call's own statement, its values as parameters. A rule that names
 * an attribute the user lacks keeps no row at all (not only that condition: inside a `not`, a condition that kept
 * nothing would keep everything).
 */

/** The user's own values a rule may name, besides `attr.{key}`. */
export const userFields = ['username', 'email', 'id'] as const;
export type UserField = (typeof userFields)[number];

/** An attribute's key: what an administrator may name one (letters, digits, _ and -, at most 64). */
export const ATTRIBUTE_KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** `{ "$user": "username" }` or `{ "$user": "attr.region" }`. */
export interface UserValue {
  $user: string;
}

/** What a rule is resolved against: the signed-in user's values and attributes. */
export interface RuleUser {
  id: number;
  username: string;
  email: string;
  attributes: Readonly<Record<string, string>>;
}

/** The filter that keeps no row (the not of the filter that keeps every row). */
export const NO_ROWS: Filter = { not: { and: [] } };

const isUserValue = (value: unknown): value is UserValue =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length === 1 &&
  '$user' in value;

/** Why `$user` names nothing a rule may use, or null when it names a user field or an attribute. */
export function userValueProblem(name: unknown): string | null {
  if (typeof name === 'string') {
    if ((userFields as readonly string[]).includes(name)) return null;
    if (name.startsWith('attr.') && ATTRIBUTE_KEY.test(name.slice(5))) return null;
  }
  return `$user must be ${userFields.join(', ')} or attr.{key} (a key of letters, digits, _ and -), not ${JSON.stringify(name)}.`;
}

/**
 * The rule with each `$user` value replaced by what `valueOf` answers for it, or `undefined` as soon as one answers
 * undefined. Walks only the places a filter document holds values (`value`, `values`), so a `$user` anywhere else is
 * left for the filter schema to refuse.
 */
function substitute(node: unknown, valueOf: (name: string) => FilterValue | undefined): unknown | undefined {
  if (typeof node !== 'object' || node === null) return node;
  if (Array.isArray(node)) {
    const out: unknown[] = [];
    for (const item of node) {
      const replaced = substitute(item, valueOf);
      if (replaced === undefined) return undefined;
      out.push(replaced);
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === 'value' && isUserValue(child)) {
      const value = valueOf(child.$user);
      if (value === undefined) return undefined;
      out[key] = value;
    } else if (key === 'values' && Array.isArray(child)) {
      const values: unknown[] = [];
      for (const item of child) {
        const value = isUserValue(item) ? valueOf(item.$user) : item;
        if (value === undefined) return undefined;
        values.push(value);
      }
      out[key] = values;
    } else {
      const replaced = substitute(child, valueOf);
      if (replaced === undefined) return undefined;
      out[key] = replaced;
    }
  }
  return out;
}

/**
 * A rule as an administrator saves it: a filter document whose values may be `$user` values. Checked by putting a
 * stand-in value of the right kind in place of each `$user` (the id a number, the rest text) and checking the result
 * as a filter document, so a rule is refused for the same reasons, with the same paths, as a filter.
 */
export const rowRule = z
  .unknown()
  .superRefine((rule, ctx) => {
    let bad: string | null = null;
    const standIn = substitute(rule, (name) => {
      bad ??= userValueProblem(name);
      return name === 'id' ? 1 : 'x';
    });
    if (bad) {
      ctx.addIssue({ code: 'custom', message: bad });
      return;
    }
    const checked = filterDocument.safeParse(standIn);
    if (!checked.success)
      for (const issue of checked.error.issues)
        ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  })
  .transform((rule) => rule as RowRule)
  .describe(
    'A filter document (the component Filter) whose values may be { "$user": "username" | "email" | "id" | "attr.{key}" }',
  );

/** A rule as stored: a filter document that may hold `$user` values (checked by `rowRule`). */
export type RowRule = Filter | { [key: string]: unknown };

/** The value of `$user` for this user: undefined for an attribute they lack. */
function userValueOf(user: RuleUser, name: string): FilterValue | undefined {
  if (name === 'id') return user.id;
  if (name === 'username') return user.username;
  if (name === 'email') return user.email;
  if (name.startsWith('attr.'))
    return Object.hasOwn(user.attributes, name.slice(5)) ? user.attributes[name.slice(5)] : undefined;
  return undefined;
}

/**
 * The rule as a plain filter document for this user: every `$user` value replaced by the user's, or NO_ROWS when the
 * rule names an attribute the user lacks. A stored rule that no longer parses (saved by an older version) keeps no
 * row either: a rule that cannot be read must never widen what a user sees.
 */
export function resolveRowRule(rule: RowRule, user: RuleUser): Filter {
  const resolved = substitute(rule, (name) => userValueOf(user, name));
  if (resolved === undefined) return NO_ROWS;
  const checked = filterDocument.safeParse(resolved);
  return checked.success ? checked.data : NO_ROWS;
}

/** Whether a rule names any `$user` value (the role editor's preview then asks for a user). */
export function ruleNamesUser(rule: RowRule): boolean {
  let named = false;
  substitute(rule, () => {
    named = true;
    return 'x';
  });
  return named;
}
