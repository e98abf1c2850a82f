import { z } from 'zod';
import {
  accountApiMessages as am,
  accountMessages as m,
  formMessages,
  passkeyMessages,
} from '#common/messages.ts';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#common/limits.ts';

/** Longest password accepted: long enough for passphrases, short enough that hashing cannot stall the server. */
export const PASSWORD_MAX_LENGTH = 256;

export const usernameField = z
  .string({ error: m.usernameRequired })
  .trim()
  .min(1, m.usernameRequired)
  .max(50)
  .regex(/^[A-Za-z0-9]+$/, m.invalidCharacters);

export const emailField = z
  .string({ error: m.emailRequired })
  .trim()
  .min(1, m.emailRequired)
  .max(EMAIL_MAX_LENGTH, m.emailMax)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, m.emailInvalid);

/** The spec's password rules; the server checks the same schema the web form uses. */
export const passwordField = z
  .string({ error: m.passwordRequired })
  .min(1, m.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, m.passwordMin)
  .max(PASSWORD_MAX_LENGTH, `Password cannot be more than ${PASSWORD_MAX_LENGTH} characters.`)
  .regex(/[0-9]/, m.passwordNumber)
  .regex(/[a-z]/, m.passwordLowercase)
  .regex(/[A-Z]/, m.passwordUppercase)
  .regex(/[^A-Za-z0-9]/, m.passwordSymbol);

export const nameField = (tooLong: string) => z.string().trim().max(NAME_MAX_LENGTH, tooLong);
export const firstNameField = nameField(m.firstNameMax);
export const lastNameField = nameField(m.lastNameMax);

/** A password with its confirmation; a mismatch marks the confirmation field. */
export const passwordWithConfirm = z
  .object({
    password: passwordField,
    passwordConfirm: z.string({ error: m.passwordConfirmRequired }).min(1, m.passwordConfirmRequired),
  })
  .refine((v) => v.password === v.passwordConfirm, {
    message: m.passwordsMustMatch,
    path: ['passwordConfirm'],
  });

/*
 * The account API (/api/account/…): every request and response body, shared by the server (validation and
 * OpenAPI) and the web app (types and forms). Names follow the spec (000 §3, §7; 001 §7); docs/decisions/0005
 * fills in what the spec leaves open.
 */

/** Methods a person can set up and make preferred (spec: User detail preferred2fa). */
export const twoFactorMethods = ['Email', 'Phone', 'Totp'] as const;
export const twoFactorMethod = z.enum(twoFactorMethods);
export type TwoFactorMethod = z.infer<typeof twoFactorMethod>;

/** Every second step a sign-in can use: the three methods plus a recovery code (and passkeys, when added). */
export const signInMethods = ['Email', 'Phone', 'Totp', 'Passkey', 'Recovery'] as const;
export const signInMethod = z.enum(signInMethods);
export type SignInMethod = z.infer<typeof signInMethod>;

/** How many recovery codes an account gets at a time. */
export const RECOVERY_CODE_COUNT = 10;
/** Largest profile image accepted (decoded bytes). */
export const PROFILE_IMAGE_MAX_BYTES = 1024 * 1024;
/** Most pixels an uploaded profile image may claim (a 20-megapixel photo fits; a decompression bomb does not). */
export const PROFILE_IMAGE_MAX_INPUT_PIXELS = 24_000_000;
/** The longest side a profile image is kept at (it is shown as a small avatar). */
export const PROFILE_IMAGE_SIZE = 512;
export const profileImageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** A one-time code: six digits. */
export const otpField = z
  .string({ error: m.otpRequired })
  .trim()
  .min(1, m.otpRequired)
  .regex(/^\d{6}$/, m.otpSixDigits);

/** A phone number: +1 and ten digits (spec 000 §5). */
export const phoneField = z
  .string({ error: m.phoneRequired })
  .trim()
  .min(1, m.phoneRequired)
  .regex(/^\+1\d{10}$/, m.phoneInvalid);

/** A recovery code as shown: ten letters and digits, often written in two groups of five. */
export const recoveryCodeField = z
  .string({ error: m.otpRequired })
  .trim()
  .min(1, m.otpRequired)
  .transform((v) => v.replace(/[\s-]/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{10}$/, am.recoveryCodeFormat));

/** The human check's solution (ALTCHA payload from GET /api/captcha); without one the form is not valid. */
export const humanCheckToken = z
  .string({ error: formMessages.invalidForm })
  .min(1, formMessages.invalidForm)
  .max(4096, formMessages.invalidForm)
  .describe('The solved human check: the ALTCHA payload for the challenge from GET /api/captcha');

/** A password typed to sign in or confirm: only required (older passwords may predate today's rules). */
export const currentPasswordField = z
  .string({ error: m.passwordRequired })
  .min(1, m.passwordRequired)
  .max(PASSWORD_MAX_LENGTH, `Password cannot be more than ${PASSWORD_MAX_LENGTH} characters.`);

/** POST /api/account/login. */
export const loginRequest = z.object({
  username: usernameField,
  password: currentPasswordField,
  token: humanCheckToken,
});
export type LoginRequest = z.infer<typeof loginRequest>;

/** The answer to a password (login, and inside `pu` for signup and forgot password): a pre-sign-in key and the
 * second steps the account can use. The key is not a session: only login/verify turns it into one. */
export const preSignIn = z.object({
  key: z.string().describe('Pre-sign-in key: 10 minutes, for login/verify and login/resend only'),
  allowed2fa: z.array(signInMethod).describe('Verified methods, plus Recovery when the account has codes'),
  preferred2fa: signInMethod.describe('The method whose code was sent (Totp: none is sent)'),
  disableSelect2fa: z.boolean().describe('True when only one method is allowed'),
});
export type PreSignIn = z.infer<typeof preSignIn>;

/** `pu`: the base64 of the JSON of a PreSignIn, for /account/login?pu=… */
export const preSignInToken = z
  .string()
  .describe('base64 of the JSON of {key, allowed2fa, preferred2fa, disableSelect2fa}');

/** POST /api/account/login/verify: a six-digit code, or a recovery code with selected2fa Recovery. A passkey
 * (selected2fa Passkey) answers through POST /api/account/login/passkey/verify {key, response} instead. */
export const verifyRequest = z
  .object({
    key: z.string().min(1, m.loginFailed).max(200, m.loginFailed),
    otp: z.string({ error: m.otpRequired }).trim().min(1, m.otpRequired).max(40, m.otpSixDigits),
    selected2fa: signInMethod,
  })
  .superRefine((v, context) => {
    if (v.selected2fa === 'Passkey') {
      context.addIssue({ code: 'custom', path: ['selected2fa'], message: passkeyMessages.useItsOwnRoute });
      return;
    }
    const field = v.selected2fa === 'Recovery' ? recoveryCodeField : otpField;
    const checked = field.safeParse(v.otp);
    if (!checked.success) {
      context.addIssue({
        code: 'custom',
        path: ['otp'],
        message: checked.error.issues[0]?.message ?? m.otpSixDigits,
      });
    }
  });
export type VerifyRequest = z.infer<typeof verifyRequest>;

/** The query parameter of /account/login that carries a second-step link's token (`dbui admin reset-2fa`). */
export const SECOND_STEP_LINK_PARAM = 'reset2fa';

/** POST /api/account/login/link: after the password, a second-step link (`dbui admin reset-2fa`) stands in for the
 * second step, once (docs/decisions/0057-command-line-and-configuration-files.md). */
export const secondStepLinkRequest = z.object({
  key: z.string().min(1, m.loginFailed).max(200, m.loginFailed),
  link: z.string().trim().min(1, am.secondStepLinkInvalid).max(200, am.secondStepLinkInvalid),
});
export type SecondStepLinkRequest = z.infer<typeof secondStepLinkRequest>;

/** POST /api/account/login/resend: another code by Email or Phone (locked for 60 s after each send). */
export const resendRequest = z.object({
  key: z.string().min(1, m.resendFailed).max(200, m.resendFailed),
  selected2fa: signInMethod,
});
export type ResendRequest = z.infer<typeof resendRequest>;

/** User detail (spec 000 §3). Secrets never leave the server: `totp` only says whether an app is set up. */
export const userDetail = z.object({
  email: z.string(),
  emailVerified: z.boolean(),
  dateEmailVerified: z.string().nullable().describe('ISO-8601 UTC'),
  phone: z.string().nullable(),
  phoneVerified: z.boolean(),
  datePhoneVerified: z.string().nullable(),
  totp: z.boolean().describe('True when an authenticator app is set up; the secret is shown only at setup'),
  totpVerified: z.boolean(),
  dateTotpVerified: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  preferred2fa: twoFactorMethod.nullable(),
});
export type UserDetail = z.infer<typeof userDetail>;

/** User image (spec 000 §3): base64 without the data: prefix. */
export const userImage = z.object({
  image: z.string().describe('base64 of the file, without a data: prefix'),
  fileName: z.string(),
  fileType: z.string().describe('MIME type, e.g. image/png'),
});
export type UserImage = z.infer<typeof userImage>;

/** User (spec 000 §3, 001 §3): the first item of user_Details and user_Images is the one used. */
export const user = z.object({
  id: z.number().int(),
  username: z.string(),
  key: z.string().nullable().describe('Only in a pre-sign-in answer; null otherwise'),
  user_Details: z.array(userDetail),
  user_Images: z.array(userImage),
  isAdmin: z.boolean(),
  allowed2fa: z.array(signInMethod),
  preferred2fa: signInMethod,
  disableSelect2fa: z.boolean(),
  passwordExpired: z.boolean().describe('True when the password must be changed before anything else'),
  recoveryCodesLeft: z.number().int().describe('Unused recovery codes'),
  passkeys: z.number().int().describe('Registered passkeys (GET /api/account/passkeys lists them)'),
});
export type User = z.infer<typeof user>;

/** Session verification (spec 000 §3): answered by login/verify and GET /api/account/verify. */
export const verification = z.object({
  token: z.string().describe('The bearer token: send it as Authorization: Bearer <token>'),
  user,
  links: z.array(z.string()).describe('Allowed path patterns: *, prefix/* or an exact path'),
  expiration: z.string().describe('ISO-8601 UTC; slides with use (idle limit) up to the absolute lifetime'),
});
export type Verification = z.infer<typeof verification>;

/** What login/verify answers: the session, or, in a forgot-password recovery after the emailed code, the next step
 * (the same key, now for the account's own second step) when the account has one beyond email. */
export const verifyAnswer = z.union([verification, preSignIn]);

/** POST /api/account/signup (spec 001 §7). */
export const signupRequest = z
  .object({
    user: z.object({
      username: usernameField,
      user_Details: z
        .array(
          z.object({
            email: emailField,
            firstName: firstNameField.nullish(),
            lastName: lastNameField.nullish(),
          }),
        )
        .min(1, m.emailRequired),
    }),
    password: passwordField,
    passwordConfirm: z.string().optional().describe('When given, it must match password'),
    token: humanCheckToken,
  })
  .refine((v) => v.passwordConfirm === undefined || v.password === v.passwordConfirm, {
    message: m.passwordsMustMatch,
    path: ['passwordConfirm'],
  });
export type SignupRequest = z.infer<typeof signupRequest>;

/** POST /api/account/forgotPassword (spec 001 §7). */
export const forgotPasswordRequest = z.object({ username: usernameField, token: humanCheckToken });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

/** POST /api/account/updatePassword: the spec sends {password}; a confirmation, when sent, must match. */
export const updatePasswordRequest = z
  .object({
    password: passwordField,
    passwordConfirm: z.string().optional().describe('When given, it must match password'),
  })
  .refine((v) => v.passwordConfirm === undefined || v.password === v.passwordConfirm, {
    message: m.passwordsMustMatch,
    path: ['passwordConfirm'],
  });
export type UpdatePasswordRequest = z.infer<typeof updatePasswordRequest>;

/** POST /api/account/reauth: the password, or a code of the authenticator app ({otp, selected2fa: 'Totp'}). */
export const reauthRequest = z
  .object({
    password: currentPasswordField.optional(),
    otp: otpField.optional(),
    selected2fa: z.literal('Totp').optional(),
  })
  .refine((v) => v.password !== undefined || v.otp !== undefined, { message: am.reauthMethod });
export type ReauthRequest = z.infer<typeof reauthRequest>;

/** POST /api/account/preferred2fa. */
export const preferred2faRequest = z.object({ preferred2fa: twoFactorMethod });
export type Preferred2faRequest = z.infer<typeof preferred2faRequest>;

/** POST /api/account: the person's own profile. Only names, the preferred method and the image change here;
 * username, isAdmin, roles, email, phone and verification flags are ignored (they change through their own
 * calls, or only by an administrator). */
export const userUpsertRequest = z.object({
  username: z.string().optional().describe('Ignored'),
  isAdmin: z.unknown().optional().describe('Ignored: rights never change here'),
  preferred2fa: twoFactorMethod.nullish(),
  user_Details: z
    .array(
      z.object({
        firstName: firstNameField.nullish(),
        lastName: lastNameField.nullish(),
        preferred2fa: twoFactorMethod.nullish(),
      }),
    )
    .optional(),
  user_Images: z
    .array(
      z.object({
        image: z.string().max(Math.ceil((PROFILE_IMAGE_MAX_BYTES * 4) / 3) + 4, am.imageTooLarge(1)),
        fileName: z.string().max(255),
        fileType: z.string().max(100),
      }),
    )
    .optional()
    .describe('[] removes the image; absent keeps it'),
});
export type UserUpsertRequest = z.infer<typeof userUpsertRequest>;

/** GET /api/account/totp: a new authenticator secret, shown this once until it is verified. */
export const totpSetup = z.object({
  key: z.string().describe('The secret in base32, for typing into the app'),
  qr: z.string().describe('The otpauth URI as a QR code: data:image/png;base64,…'),
  uri: z.string().describe('otpauth://totp/… (SHA-1, 6 digits, 30 s)'),
});
export type TotpSetup = z.infer<typeof totpSetup>;

/** Recovery codes, answered once when issued. */
export const recoveryCodes = z.object({
  recoveryCodes: z.array(z.string()).describe('Ten single-use codes: shown once, stored hashed'),
});
export type RecoveryCodes = z.infer<typeof recoveryCodes>;

/** eotp/potp/totp verify: the updated user, and recovery codes when this was the first method set up. */
export const methodVerified = z.object({
  user,
  recoveryCodes: z.array(z.string()).nullable().describe('Issued with the first verified method, else null'),
});
export type MethodVerified = z.infer<typeof methodVerified>;

/** GET /api/account/roles: the person's own roles (spec Role fields, without permissions and members). */
export const accountRole = z.object({
  Id: z.number().int(),
  Name: z.string(),
  Role_Links: z.array(z.object({ Id: z.number().int(), RoleId: z.number().int(), Link: z.string() })),
});
export type AccountRole = z.infer<typeof accountRole>;
