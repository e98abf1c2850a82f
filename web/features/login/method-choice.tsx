import { Radio, Stack } from '@mantine/core';
import type { SignInMethod } from '#common/contract/account.ts';
import { signInMethods } from '#common/contract/account.ts';
import { twoFactorMessages as tm } from '#common/messages.ts';

type MethodChoiceProps = {
  /** PreSignIn.allowed2fa: the methods this account can use. */
  allowed: readonly SignInMethod[];
  /** The chosen method (PreSignIn.preferred2fa at first). */
  value: SignInMethod;
  onChange: (method: SignInMethod) => void;
  /** PreSignIn.disableSelect2fa, or a request on its way. */
  disabled?: boolean;
};

function isSignInMethod(value: string): value is SignInMethod {
  return (signInMethods as readonly string[]).includes(value);
}

/** The optional second-step choice of signing in (spec 000 §4): shown only when the account has more than one
 * method, in the contract's order, each with its name and what it does. */
export function MethodChoice({ allowed, value, onChange, disabled = false }: MethodChoiceProps) {
  if (allowed.length < 2) return null;
  const methods = signInMethods.filter((method) => allowed.includes(method));
  return (
    <Radio.Group
      label={tm.methodChoice}
      value={value}
      onChange={(next) => {
        if (!disabled && isSignInMethod(next)) onChange(next);
      }}
    >
      <Stack gap="xs" mt="xs">
        {methods.map((method) => (
          <Radio
            key={method}
            value={method}
            label={tm.methodLabels[method]}
            description={tm.methodDescriptions[method]}
            disabled={disabled}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}
