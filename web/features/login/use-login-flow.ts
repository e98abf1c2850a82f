import { useCallback, useReducer, useState } from 'react';
import { useNavigate } from 'react-router';
import { notifications } from '@mantine/notifications';
import type { LoginRequest, PreSignIn, SignInMethod } from '#common/contract/account.ts';
import { accountMessages as m, formMessages } from '#common/messages.ts';
import { useLogin } from '#web/api/account/login.ts';
import { useLoginLink } from '#web/api/account/login-link.ts';
import { useLoginResend } from '#web/api/account/login-resend.ts';
import { isVerification, useLoginVerify, type VerifyAnswer } from '#web/api/account/login-verify.ts';
import { useSubmit } from '#web/forms/use-submit.ts';
import { landingAfterSignIn } from '#web/session/landing.ts';
import { useSession } from '#web/session/session-context.ts';
import { loginFailure } from './login-failure.ts';
import { initialLoginState, loginReducer, needsSend } from './login-steps.ts';
import { usePasskeySignIn } from './use-passkey-sign-in.ts';

const fail = (message: string) => notifications.show({ color: 'red', message });
const tell = (message: string | null) => {
  if (message) notifications.show({ color: 'green', message });
};

/**
 * The login page's work: the step machine (login-steps.ts) driven by the account API. Every failure is a toast
 * with the server's sentence (spec 000 §8); a refused password resets the human check; a session lands where
 * landingAfterSignIn says (spec 000 §4).
 */
export function useLoginFlow({
  preSignIn,
  returnTo,
  secondStepLink = null,
}: {
  preSignIn: PreSignIn | null;
  returnTo: string | null;
  /** A second-step link's token (`dbui admin reset-2fa`): after the password it stands in for the second step. */
  secondStepLink?: string | null;
}) {
  const [state, dispatch] = useReducer(loginReducer, preSignIn, (arrived) =>
    arrived
      ? loginReducer(initialLoginState, { type: 'preSignInArrived', preSignIn: arrived, now: Date.now() })
      : initialLoginState,
  );
  const session = useSession();
  const navigate = useNavigate();
  const login = useLogin();
  const verify = useLoginVerify();
  const linkSignIn = useLoginLink();
  // Tried once: when it is refused, the sign-in goes on with the account's own second step.
  const [link, setLink] = useState(secondStepLink);
  const resend = useLoginResend();
  const { signInWithPasskey } = usePasskeySignIn();
  const { submitting, submit } = useSubmit();
  // Once a session arrived the page only waits to be left, which can take a moment (the landing page's code loads
  // while this page stays on screen): every button stays busy, so a Verify clicked meanwhile does not send the used
  // code again.
  const [signedIn, setSignedIn] = useState(false);
  const { signIn } = session;

  /** A session or, in a forgot-password recovery, the account's own second step next. */
  const settle = useCallback(
    async (answer: VerifyAnswer, message: string | null) => {
      if (isVerification(answer)) {
        setSignedIn(true);
        signIn(answer);
        await navigate(landingAfterSignIn(answer, returnTo), { replace: true });
        return;
      }
      tell(message);
      dispatch({ type: 'nextStep', preSignIn: answer, now: Date.now() });
    },
    [navigate, returnTo, signIn],
  );

  const sendCode = useCallback(
    async (key: string, method: SignInMethod) => {
      try {
        const answer = await resend.mutateAsync({ key, selected2fa: method });
        dispatch({ type: 'codeSent', method, now: Date.now() });
        tell(answer.message);
      } catch (error) {
        const message = loginFailure(error, m.resendFailed);
        dispatch({ type: 'resendRefused', method, message, now: Date.now() });
        fail(message);
      }
    },
    [resend],
  );

  const actions = {
    signInWithPassword: (request: LoginRequest) =>
      void submit(async () => {
        try {
          const answer = await login.mutateAsync(request);
          if (link) {
            setLink(null);
            try {
              const signedIn = await linkSignIn.mutateAsync({ key: answer.data.key, link });
              await settle(signedIn.data, null);
              return;
            } catch (error) {
              fail(loginFailure(error, m.otpFailed));
            }
          }
          dispatch({ type: 'passwordAccepted', preSignIn: answer.data, now: Date.now() });
        } catch (error) {
          dispatch({ type: 'passwordRefused' });
          fail(loginFailure(error, m.loginFailed));
        }
      }),
    invalidForm: () => fail(formMessages.invalidForm),
    signInWithPasskeyAlone: () =>
      void submit(async () => {
        try {
          await settle(await signInWithPasskey(), null);
        } catch (error) {
          fail(loginFailure(error, m.loginFailed));
        }
      }),
    pick: (method: SignInMethod) => dispatch({ type: 'methodPicked', method }),
    confirmMethod: () =>
      void submit(async () => {
        dispatch({ type: 'methodConfirmed' });
        if (state.preSignIn && needsSend(state)) await sendCode(state.preSignIn.key, state.method);
      }),
    verifyCode: (otp: string) =>
      void submit(async () => {
        if (!state.preSignIn) return;
        try {
          const answer = await verify.mutateAsync({
            key: state.preSignIn.key,
            otp,
            selected2fa: state.method,
          });
          await settle(answer.data, answer.message);
        } catch (error) {
          dispatch({ type: 'codeRefused' });
          fail(loginFailure(error, m.otpFailed));
        }
      }),
    verifyPasskey: () =>
      void submit(async () => {
        if (!state.preSignIn) return;
        try {
          await settle(await signInWithPasskey(state.preSignIn.key), null);
        } catch (error) {
          fail(loginFailure(error, m.otpFailed));
        }
      }),
    resendCode: () =>
      void submit(async () => {
        if (state.preSignIn) await sendCode(state.preSignIn.key, state.method);
      }),
    chooseRecovery: () => dispatch({ type: 'recoveryChosen' }),
    chooseAnotherMethod: () => dispatch({ type: 'anotherMethod' }),
    startOver: () => dispatch({ type: 'startOver' }),
  };

  return { state, actions, submitting: submitting || signedIn, resending: resend.isPending };
}
