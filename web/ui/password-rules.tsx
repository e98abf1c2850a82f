import { List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconPoint } from '@tabler/icons-react';
import { passwordField } from '#common/contract/account.ts';
import { accountMessages as m } from '#common/messages.ts';
import { PASSWORD_MIN_LENGTH } from '#common/limits.ts';

/** The spec's password rules (001 §5) as a person reads them, each tied to the schema message that enforces it. */
const rules = [
  { label: `At least ${PASSWORD_MIN_LENGTH} characters`, message: m.passwordMin },
  { label: 'A number', message: m.passwordNumber },
  { label: 'A lowercase letter', message: m.passwordLowercase },
  { label: 'An uppercase letter', message: m.passwordUppercase },
  { label: 'A symbol, such as # or !', message: m.passwordSymbol },
] as const;

/** Which messages of the shared password schema the value still breaks (so the hint cannot disagree with it). */
function brokenRules(value: string): Set<string> {
  const result = passwordField.safeParse(value);
  if (result.success) return new Set();
  const broken = new Set(result.error.issues.map((issue) => issue.message));
  // An empty value breaks only the 'required' check in the schema; every rule is still to do.
  if (value.length === 0) for (const rule of rules) broken.add(rule.message);
  return broken;
}

/** The hint under a new password: the rules, each ticked once the typed password meets it. */
export function PasswordRules({ value }: { value: string }) {
  const broken = brokenRules(value);
  return (
    <div>
      <Text size="sm" c="dimmed" mb={4}>
        Your password needs:
      </Text>
      <List spacing={2} size="sm" center>
        {rules.map((rule) => {
          const met = !broken.has(rule.message);
          return (
            <List.Item
              key={rule.message}
              data-met={met || undefined}
              icon={
                <ThemeIcon
                  size={18}
                  radius="xl"
                  color={met ? 'teal' : 'gray'}
                  variant={met ? 'filled' : 'light'}
                >
                  {met ? <IconCheck size={12} aria-hidden /> : <IconPoint size={12} aria-hidden />}
                </ThemeIcon>
              }
            >
              {/* Inside the input's description, which is dimmed: a met rule reads in the page's text colour. */}
              <Text span size="sm" c={met ? 'var(--mantine-color-text)' : 'dimmed'}>
                {rule.label}
              </Text>
              <VisuallyHidden>{met ? ' (done)' : ' (to do)'}</VisuallyHidden>
            </List.Item>
          );
        })}
      </List>
    </div>
  );
}
