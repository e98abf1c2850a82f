import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountRole,
  forgotPasswordRequest,
  loginRequest,
  methodVerified,
  preferred2faRequest,
  preSignIn,
  preSignInToken,
  reauthRequest,
  recoveryCodes,
  resendRequest,
  secondStepLinkRequest,
  signupRequest,
  totpSetup,
  updatePasswordRequest,
  user,
  userUpsertRequest,
  verification,
  verifyAnswer,
  verifyRequest,
} from '#common/contract/account.ts';
import { envelope, failureEnvelope } from '#common/contract/envelope.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { ApiError, success } from '#server/plugins/error-envelope.ts';
import { perMinute } from '#server/plugins/rate-limits.ts';
import { requireRecentAuth, requireSignedIn, type SignedInAccount } from '#server/plugins/session.ts';
import type { AccountDeps } from './account-deps.ts';
import { login, resend, verified, verifyLogin } from './login-service.ts';
import { forgotPassword, updatePassword } from './password-service.ts';
import { deleteOwnAccount, ownRoles, ownUser, upsertOwnUser } from './profile-service.ts';
import { reauthenticate } from './reauth-service.ts';
import { signInWithSecondStepLink } from './second-step-link.ts';
import { issueRecoveryCodes } from './recovery-code-service.ts';
import { endOtherSessions, endSession } from './session-service.ts';
import { signup } from './signup-service.ts';
import { buildVerification } from './user-view.ts';
import {
  sendSetupCode,
  setPreferred,
  startTotpSetup,
  verifySetupCode,
  verifyTotpSetup,
} from './two-factor-service.ts';

const tags = ['account'];
/** Every failure is the envelope with a message; 401 signed out, 403 re-authentication or XSRF, 429 too fast. */
const failures = { '4xx': failureEnvelope };
const codeParam = z.object({ code: z.string().describe('The six-digit code') });
const recent = 'Needs a sign-in or POST /api/account/reauth within the last 10 minutes, else 403.';

/** The signed-in account (the route's preValidation hook has already refused everyone else). */
function accountOf(request: FastifyRequest): SignedInAccount {
  if (!request.account) throw new ApiError(401, am.signInRequired);
  return request.account;
}

/** The account API under /api/account (spec 000 §7, 001 §7; docs/decisions/0005-accounts.md). */
export function accountRoutes(deps: AccountDeps): FastifyPluginAsyncZod {
  const limits = deps.rateLimits;
  return async (app) => {
    app.get(
      '/api/account/verify',
      {
        preValidation: requireSignedIn,
        config: { whilePasswordMustChange: true },
        schema: {
          tags,
          summary:
            'The session verification {token, user, links, expiration}, with the new sliding expiration',
          response: { 200: envelope(verification), ...failures },
        },
      },
      async (request) => {
        const account = accountOf(request);
        if (!request.session) throw new ApiError(401, am.signInRequired);
        return success(await buildVerification(deps.store, account, request.session));
      },
    );

    app.get(
      '/api/account',
      {
        preValidation: requireSignedIn,
        config: { whilePasswordMustChange: true },
        schema: {
          tags,
          summary: 'The signed-in user (details in user_Details[0], image in user_Images[0])',
          response: { 200: envelope(user), ...failures },
        },
      },
      async (request) => success(await ownUser(deps, accountOf(request))),
    );

    app.post(
      '/api/account',
      {
        preValidation: requireSignedIn,
        bodyLimit: 2 * 1024 * 1024,
        schema: {
          tags,
          summary: "Update the signed-in user's names, preferred method and image",
          description:
            'username, isAdmin, roles, email, phone and the verification flags in the body are ignored: email and ' +
            'phone change through eotp/potp, rights only by an administrator. An unverified preferred method is refused.',
          body: userUpsertRequest,
          response: { 200: envelope(user), ...failures },
        },
      },
      async (request) =>
        success(await upsertOwnUser(deps, request, accountOf(request), request.body), m.userUpdated),
    );

    app.get(
      '/api/account/roles',
      {
        preValidation: requireSignedIn,
        schema: {
          tags,
          summary: "The signed-in user's roles with their links",
          response: { 200: envelope(z.array(accountRole)), ...failures },
        },
      },
      async (request) => success(await ownRoles(deps, accountOf(request))),
    );

    app.delete(
      '/api/account/delete',
      {
        preValidation: requireRecentAuth,
        schema: {
          tags,
          summary: 'Delete the signed-in account and everything that belongs to it; its sessions end',
          description: `${recent} The only administrator cannot delete their account (409).`,
          response: { 200: envelope(z.null()), ...failures },
        },
      },
      async (request) => {
        await deleteOwnAccount(deps, request, accountOf(request));
        return success(null, am.accountDeleted);
      },
    );

    app.post(
      '/api/account/signup',
      {
        config: perMinute(limits.signIn),
        schema: {
          tags,
          summary: 'Create an account (built-in User role) and send an email code; answers pu',
          description:
            'data is pu: go to /account/login?pu=… for the code. Verifying it confirms the email and signs in. ' +
            'A taken username answers 409; a common password 400.',
          body: signupRequest,
          response: { 200: envelope(preSignInToken), ...failures },
        },
      },
      async (request) => success(await signup(deps, request.body, request.ip), am.signupDone),
    );

    app.post(
      '/api/account/login',
      {
        config: perMinute(limits.signIn),
        schema: {
          tags,
          summary: 'Check the password; answers a pre-sign-in key and sends a code by the preferred method',
          description:
            'Every refusal (unknown username, wrong password, locked account) is the same 401 "Failed to login... ' +
            'Please try again." after the same work. Five failures in a row lock the account for 15 minutes.',
          body: loginRequest,
          response: { 200: envelope(preSignIn), ...failures },
        },
      },
      async (request) => success(await login(deps, request.body, request.ip)),
    );

    app.post(
      '/api/account/login/verify',
      {
        config: perMinute(limits.codeCheck),
        schema: {
          tags,
          summary: 'Turn a pre-sign-in key and a code into a session; answers the verification',
          description:
            'selected2fa Email or Phone: the code sent; Totp: the app code; Recovery: a recovery code (once). ' +
            'A wrong code answers 401 "Failed to validate OTP." and counts toward the lockout; a key whose sign-in ' +
            'is already complete (a second verify of the code that did it) answers 409. In a forgot-password ' +
            'recovery of an account with a second step beyond email, the emailed code answers the next step ' +
            '(the same key with the methods to use now) instead of a session.',
          body: verifyRequest,
          response: { 200: envelope(verifyAnswer), ...failures },
        },
      },
      async (request) => verified(await verifyLogin(deps, request, request.body)),
    );

    app.post(
      '/api/account/login/link',
      {
        config: perMinute(limits.codeCheck),
        schema: {
          tags,
          summary: "Turn a pre-sign-in key and a second-step link's token into a session",
          description:
            'The link `dbui admin reset-2fa` prints (/account/login?reset2fa=…) stands in for the second step of ' +
            'one sign-in after the password, within 24 hours. A token never issued to the account answers 401 and ' +
            'counts toward the lockout; one used or expired answers 401 and counts nothing.',
          body: secondStepLinkRequest,
          response: { 200: envelope(verification), ...failures },
        },
      },
      async (request) => success(await signInWithSecondStepLink(deps, request, request.body)),
    );

    app.post(
      '/api/account/login/resend',
      {
        config: perMinute(limits.resend),
        schema: {
          tags,
          summary: 'Send another code by Email or Phone',
          description: 'At most once a minute per method: 429 "Please wait N seconds before resending OTP."',
          body: resendRequest,
          response: { 200: envelope(z.null()), ...failures },
        },
      },
      async (request) => {
        await resend(deps, request.body);
        return success(null, am.codeSent);
      },
    );

    app.post(
      '/api/account/forgotPassword',
      {
        config: perMinute(limits.forgotPassword),
        schema: {
          tags,
          summary: 'Send a code to the account email; answers pu (the sign-in then must change the password)',
          description: 'Unknown usernames get the same answer, whose key never verifies.',
          body: forgotPasswordRequest,
          response: { 200: envelope(preSignInToken), ...failures },
        },
      },
      async (request) => success(await forgotPassword(deps, request.body, request.ip), am.forgotPasswordSent),
    );

    app.post(
      '/api/account/updatePassword',
      {
        preValidation: requireRecentAuth,
        config: { whilePasswordMustChange: true },
        schema: {
          tags,
          summary: 'Set a new password; every other session of the account ends',
          description: `${recent} A forgot-password sign-in counts as one. Common passwords and the current one are refused.`,
          body: updatePasswordRequest,
          response: { 200: envelope(z.null()), ...failures },
        },
      },
      async (request) => {
        await updatePassword(deps, request, accountOf(request), request.body);
        return success(null, am.passwordUpdated);
      },
    );

    app.get(
      '/api/account/logout',
      {
        schema: {
          tags,
          summary: 'End the current session (signed-out callers get the same answer)',
          response: { 200: envelope(z.null()), ...failures },
        },
      },
      async (request) => {
        await endSession(deps, request);
        return success(null, am.signedOut);
      },
    );

    app.post(
      '/api/account/reauth',
      {
        preValidation: requireSignedIn,
        config: perMinute(limits.codeCheck),
        schema: {
          tags,
          summary: 'Confirm the password (or an authenticator code) for changes that need a recent proof',
          description: 'Valid for 10 minutes. Failures count toward the lockout.',
          body: reauthRequest,
          response: { 200: envelope(z.null()), ...failures },
        },
      },
      async (request) => {
        await reauthenticate(deps, request, accountOf(request), request.body);
        return success(null, am.reauthDone);
      },
    );

    for (const [path, channel, name, example] of [
      ['eotp', 'Email', 'email', 'ann@example.com'],
      ['potp', 'Phone', 'phone', '+15551234567'],
    ] as const) {
      app.get(
        `/api/account/${path}/:${name}`,
        {
          preValidation: requireRecentAuth,
          config: perMinute(limits.resend),
          schema: {
            tags,
            summary: `Send a code to confirm this ${name} for ${channel} sign-in`,
            description: `${recent} At most once a minute. e.g. ${example}`,
            params: z.object({ [name]: z.string() }),
            response: { 200: envelope(z.null()), ...failures },
          },
        },
        async (request) => {
          const params = request.params as Record<string, string>;
          const target = await sendSetupCode(deps, accountOf(request), channel, params[name] ?? '');
          return success(null, am.codeSentTo(target));
        },
      );
      app.get(
        `/api/account/${path}/verify/:code`,
        {
          preValidation: requireRecentAuth,
          config: perMinute(limits.codeCheck),
          schema: {
            tags,
            summary: `Confirm the ${name} with its code: ${channel} becomes a verified method`,
            description: `${recent} Other sessions end; the first verified method also issues recovery codes.`,
            params: codeParam,
            response: { 200: envelope(methodVerified), ...failures },
          },
        },
        async (request) =>
          success(
            await verifySetupCode(deps, request, accountOf(request), channel, request.params.code),
            am.methodVerified(channel),
          ),
      );
    }

    app.get(
      '/api/account/totp',
      {
        preValidation: requireRecentAuth,
        schema: {
          tags,
          summary: 'A new authenticator secret with its QR code; pending until totp/verify',
          description: `${recent} The secret is shown this once.`,
          response: { 200: envelope(totpSetup), ...failures },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return success(await startTotpSetup(deps, accountOf(request)));
      },
    );

    app.get(
      '/api/account/totp/verify/:code',
      {
        preValidation: requireRecentAuth,
        config: perMinute(limits.codeCheck),
        schema: {
          tags,
          summary: 'Confirm the authenticator with a code: Totp becomes a verified method',
          description: `${recent} Other sessions end; the first verified method also issues recovery codes.`,
          params: codeParam,
          response: { 200: envelope(methodVerified), ...failures },
        },
      },
      async (request) =>
        success(
          await verifyTotpSetup(deps, request, accountOf(request), request.params.code),
          am.methodVerified('Totp'),
        ),
    );

    app.post(
      '/api/account/preferred2fa',
      {
        preValidation: requireSignedIn,
        schema: {
          tags,
          summary: 'Choose the method whose code is sent at sign-in; only a verified method',
          body: preferred2faRequest,
          response: { 200: envelope(user), ...failures },
        },
      },
      async (request) =>
        success(
          await setPreferred(deps, accountOf(request), request.body.preferred2fa, request.ip),
          m.preferred2faUpdated,
        ),
    );

    app.post(
      '/api/account/recovery-codes',
      {
        preValidation: requireRecentAuth,
        schema: {
          tags,
          summary: 'Replace the recovery codes with ten new ones, answered this once',
          description: `${recent} Each code signs in once with selected2fa Recovery.`,
          response: { 200: envelope(recoveryCodes), ...failures },
        },
      },
      async (request, reply) => {
        const account = accountOf(request);
        reply.header('cache-control', 'no-store');
        const codes = await issueRecoveryCodes(deps, account.userId, request.ip);
        await endOtherSessions(deps, account.userId, account.sessionId);
        return success({ recoveryCodes: codes }, am.recoveryCodesIssued);
      },
    );
  };
}
