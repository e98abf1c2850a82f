import { z } from 'zod';
import { accountMessages as m } from '#common/messages.ts';
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
