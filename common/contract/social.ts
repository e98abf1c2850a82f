import { z } from 'zod';

/*
 * Social sign-in under /api/account (docs/decisions/0005-accounts.md, "Social sign-in"):
 * which providers are set up, which the signed-in account has linked, and where the browser goes to link one.
 * Sign-in itself is a browser navigation (GET /api/account/login/{provider}), answered with redirects.
 */

/** Social sign-in providers (docs/decisions/0005-accounts.md, "Social sign-in"): the three the spec names, and
 * `oidc`, any OpenID Connect provider the operator sets up with OIDC_ISSUER (0060). */
export const socialProviderNames = ['google', 'microsoft', 'facebook', 'oidc'] as const;
export const socialProviderName = z.enum(socialProviderNames);
export type SocialProviderName = z.infer<typeof socialProviderName>;

/** A provider identity linked to the signed-in account. */
export const linkedProvider = z.object({
  provider: socialProviderName,
  email: z.string().nullable().describe('The email the provider last gave (informational)'),
  linkedAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type LinkedProvider = z.infer<typeof linkedProvider>;

/** GET /api/account/providers: the buttons to show, and what the signed-in account has linked. */
export const socialProviders = z.object({
  configured: z.array(socialProviderName).describe('Providers set up on this server; hide the other buttons'),
  linked: z.array(linkedProvider).describe('The signed-in account’s linked providers; [] when signed out'),
  labels: z
    .partialRecord(socialProviderName, z.string())
    .optional()
    .describe(
      'The name to show for each configured provider ("Google"; for oidc, the operator’s OIDC_LABEL, "Single sign-on" by default)',
    ),
  hasPassword: z
    .boolean()
    .nullable()
    .describe(
      'Whether the signed-in account has a password (null when signed out): without one, the last provider cannot be unlinked',
    ),
});
export type SocialProviders = z.infer<typeof socialProviders>;

/** POST /api/account/providers/{provider}/link: where the browser goes to link the provider. */
export const socialLinkStart = z.object({
  url: z.string().describe("The provider's authorization URL: navigate the browser to it"),
});
export type SocialLinkStart = z.infer<typeof socialLinkStart>;
