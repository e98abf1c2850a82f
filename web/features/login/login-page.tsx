import { useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { notifications } from '@mantine/notifications';
import { IconLogin2, IconShieldCheck } from '@tabler/icons-react';
import { SECOND_STEP_LINK_PARAM } from '#common/contract/account.ts';
import { loginMessages as lm } from '#common/messages.ts';
import { landingAfterSignIn } from '#web/session/landing.ts';
import { safeReturnPath } from '#web/session/safe-return-path.ts';
import { useSession } from '#web/session/session-context.ts';
import { CodeStep } from './code-step.tsx';
import { CredentialsForm } from './credentials-form.tsx';
import { FormCard } from '#web/ui/form-card.tsx';
import { emailCodeExpiresAt, offersAnotherMethod, offersRecovery, resendLockedUntil } from './login-steps.ts';
import { MethodStep } from './method-step.tsx';
import { readPreSignInToken } from './pre-sign-in-token.ts';
import { useLoginFlow } from './use-login-flow.ts';

/**
 * /account/login (spec 000 §2, §4): credentials, then the optional method choice, then the code. `error` is shown as
 * a toast, `pu` goes straight to the code entry, `r` is where a sign-in lands. `error` and `pu` leave the address
 * once read, so a reload does not repeat the toast and the key does not stay in the history.
 */
export function LoginPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const [arrived] = useState(() => {
    const pu = params.get('pu');
    const link = params.get(SECOND_STEP_LINK_PARAM);
    // Taking pu out of the address is a navigation, and the layout rebuilds the page on each one (spec 001 §2): the
    // rebuilt page finds the key in the history state instead, and announces and cleans nothing again. A
    // second-step link's token (`dbui admin reset-2fa`) leaves the address the same way.
    const carried = pu === null ? carriedValue(location.state, 'pu') : null;
    return {
      pu,
      preSignIn: readPreSignInToken(pu ?? carried),
      error: params.get('error'),
      link,
      secondStepLink: link ?? carriedValue(location.state, 'link'),
    };
  });
  const returnTo = safeReturnPath(params.get('r'));
  const { verification } = useSession();
  // Someone already signed in who opens the plain login page goes to their home page. With `r` (the 401 page's Login:
  // this account may not open that page) or `pu`, the page stays, to sign in as someone else or finish a step.
  // Decided once, on arrival: a sign-in on this page navigates by itself.
  const [landing] = useState(() =>
    verification && params.get('pu') === null && params.get('r') === null
      ? landingAfterSignIn(verification, null)
      : null,
  );
  const { state, actions, submitting, resending } = useLoginFlow({
    preSignIn: arrived.preSignIn,
    returnTo,
    secondStepLink: arrived.secondStepLink,
  });
  const announced = useRef(false);

  useEffect(() => {
    if (announced.current) return;
    announced.current = true;
    if (arrived.error) notifications.show({ color: 'red', message: arrived.error });
    if (arrived.pu && !arrived.preSignIn) notifications.show({ color: 'red', message: lm.preSignInInvalid });
    if (arrived.error !== null || arrived.pu !== null || arrived.link !== null) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('error');
          next.delete('pu');
          next.delete(SECOND_STEP_LINK_PARAM);
          return next;
        },
        {
          replace: true,
          state:
            arrived.preSignIn || arrived.link
              ? { pu: arrived.preSignIn ? arrived.pu : null, link: arrived.link }
              : null,
        },
      );
    }
  }, [arrived, setParams]);

  if (landing) return <Navigate to={landing} replace />;
  if (state.step === 'credentials' || !state.preSignIn) {
    return (
      <FormCard
        icon={<IconLogin2 size={26} />}
        title={lm.title}
        intro={arrived.secondStepLink ? lm.secondStepLinkIntro : lm.intro}
      >
        <CredentialsForm
          onSubmit={actions.signInWithPassword}
          onInvalid={actions.invalidForm}
          onPasskey={actions.signInWithPasskeyAlone}
          humanCheckKey={state.humanCheckKey}
          submitting={submitting}
          returnTo={returnTo}
        />
      </FormCard>
    );
  }
  if (state.step === 'choose') {
    return (
      <FormCard icon={<IconShieldCheck size={26} />} title={lm.chooseTitle} intro={lm.chooseIntro}>
        <MethodStep
          preSignIn={state.preSignIn}
          method={state.method}
          onPick={actions.pick}
          onContinue={actions.confirmMethod}
          onStartOver={actions.startOver}
          busy={submitting}
        />
      </FormCard>
    );
  }
  return (
    <FormCard icon={<IconShieldCheck size={26} />} title={lm.codeTitle} intro={lm.codeIntro[state.method]}>
      <CodeStep
        method={state.method}
        attempt={state.codeAttempt}
        expiresAt={emailCodeExpiresAt(state)}
        lockedUntil={resendLockedUntil(state)}
        onCode={actions.verifyCode}
        onPasskey={actions.verifyPasskey}
        onResend={actions.resendCode}
        offersRecovery={offersRecovery(state)}
        offersAnotherMethod={offersAnotherMethod(state)}
        onRecovery={actions.chooseRecovery}
        onAnotherMethod={actions.chooseAnotherMethod}
        onStartOver={actions.startOver}
        verifying={submitting && !resending}
        resending={resending}
      />
    </FormCard>
  );
}

/** The pu or second-step link a cleaned address left in the history state (see LoginPage), or null. */
function carriedValue(state: unknown, name: 'pu' | 'link'): string | null {
  if (typeof state !== 'object' || state === null || !(name in state)) return null;
  const value = (state as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : null;
}
