import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { PasswordRules } from '#web/ui/password-rules.tsx';

/**
 * A password input for choosing a password: the browser may suggest a strong one (new-password), and the show/hide
 * button is reachable by keyboard and says what it does (Mantine's is skipped by Tab and named generically). With
 * `withRules`, the spec's rules show under it as its description, so a screen reader reads them with the field.
 */
export function NewPasswordInput({
  label,
  withRules = false,
  ...props
}: PasswordInputProps & { label: string; value: string; withRules?: boolean }) {
  return (
    <PasswordInput
      label={label}
      autoComplete="new-password"
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': `Show ${label.toLowerCase()}` }}
      {...(withRules
        ? {
            description: <PasswordRules value={props.value} />,
            // Below the input and its message, and a div: the list is not valid inside Mantine's <p>.
            inputWrapperOrder: ['label', 'input', 'error', 'description'] as const,
            descriptionProps: { component: 'div', mt: 6 },
          }
        : {})}
      {...props}
    />
  );
}
