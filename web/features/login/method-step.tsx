import { Anchor, Button, Stack } from '@mantine/core';
import type { PreSignIn, SignInMethod } from '#common/contract/account.ts';
import { loginMessages as lm } from '#common/messages.ts';
import { MethodChoice } from './method-choice.tsx';

type MethodStepProps = {
  preSignIn: PreSignIn;
  method: SignInMethod;
  onPick: (method: SignInMethod) => void;
  onContinue: () => void;
  onStartOver: () => void;
  /** A code is being sent for the chosen method. */
  busy: boolean;
};

/** The optional second-step choice (spec 000 §2, §4): the account's methods, its preferred one selected. */
export function MethodStep({ preSignIn, method, onPick, onContinue, onStartOver, busy }: MethodStepProps) {
  return (
    <form
      noValidate
      aria-label={lm.chooseTitle}
      onSubmit={(event) => {
        event.preventDefault();
        onContinue();
      }}
    >
      <Stack gap="md">
        <MethodChoice
          allowed={preSignIn.allowed2fa}
          value={method}
          onChange={onPick}
          disabled={preSignIn.disableSelect2fa || busy}
        />
        <Button type="submit" loading={busy}>
          {lm.continue}
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={onStartOver}>
          {lm.backToLogin}
        </Anchor>
      </Stack>
    </form>
  );
}
