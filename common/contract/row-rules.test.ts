import { describe, expect, it } from 'vitest';
import { NO_ROWS, resolveRowRule, rowRule, ruleNamesUser, type RowRule } from './row-rules.ts';

const user = { id: 7, username: 'ana', email: 'ana@example.com', attributes: { region: 'BR' } };

describe('row rules', () => {
  it('takes a filter document whose values may be the user’s own', () => {
    const rule = {
      and: [
        { column: 'Country', op: 'eq', value: { $user: 'attr.region' } },
        { column: 'SupportRepId', op: 'in', values: [{ $user: 'id' }, 3] },
      ],
    };
    expect(rowRule.safeParse(rule).success).toBe(true);
    expect(resolveRowRule(rule as RowRule, user)).toEqual({
      and: [
        { column: 'Country', op: 'eq', value: 'BR' },
        { column: 'SupportRepId', op: 'in', values: [7, 3] },
      ],
    });
    expect(ruleNamesUser(rule as RowRule)).toBe(true);
    expect(ruleNamesUser({ column: 'Country', op: 'eq', value: 'BR' })).toBe(false);
  });

  it('refuses a $user that names nothing, and a rule that is no filter, as a filter is refused', () => {
    const unknown = rowRule.safeParse({ column: 'Email', op: 'eq', value: { $user: 'password' } });
    expect(unknown.error?.issues[0]?.message).toMatch(/^\$user must be username, email, id or attr\.\{key\}/);
    const badKey = rowRule.safeParse({ column: 'Email', op: 'eq', value: { $user: 'attr.no such' } });
    expect(badKey.success).toBe(false);
    const notFilter = rowRule.safeParse({ column: 'Email', op: 'near', value: 'x' });
    expect(notFilter.success).toBe(false);
  });

  it('keeps no row when the rule names an attribute the user lacks, even under a not', () => {
    const rule = { not: { column: 'Country', op: 'eq', value: { $user: 'attr.team' } } };
    expect(resolveRowRule(rule, user)).toEqual(NO_ROWS);
    // A stored rule that no longer reads as a filter never widens what is seen.
    expect(resolveRowRule({ column: 'Country', op: 'near', value: 'x' }, user)).toEqual(NO_ROWS);
  });
});
