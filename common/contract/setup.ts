import { z } from 'zod';
import { emailField, passwordField, usernameField } from '#common/contract/account.ts';
import { accountMessages as m } from '#common/messages.ts';

/** POST /api/setup: the one-time setup link printed at the first start creates the first administrator. */
export const setupRequest = z
  .object({
    token: z.string().min(1, 'The setup link is incomplete: open the link printed at start-up.'),
    username: usernameField,
    email: emailField,
    password: passwordField,
    passwordConfirm: z.string({ error: m.passwordConfirmRequired }).min(1, m.passwordConfirmRequired),
  })
  .refine((v) => v.password === v.passwordConfirm, {
    message: m.passwordsMustMatch,
    path: ['passwordConfirm'],
  });
export type SetupRequest = z.infer<typeof setupRequest>;

/** GET /api/setup: whether the first administrator still has to be created. */
export const setupStatus = z.object({ required: z.boolean() });
