import { Button, SimpleGrid } from '@mantine/core';
import { IconBrandFacebook, IconBrandGoogle, IconBrandWindows, IconKey } from '@tabler/icons-react';
import type { SocialProviderName } from '#common/contract/social.ts';
import { loginMessages as lm } from '#common/messages.ts';
import { providerName, useProviders } from '#web/api/account/providers.ts';

const icons = {
  google: IconBrandGoogle,
  microsoft: IconBrandWindows,
  facebook: IconBrandFacebook,
  oidc: IconKey,
} as const;

/** Where the browser goes to sign in with a provider (a navigation, not an API call; spec 000 §7), carrying `r`. */
export function socialSignInHref(provider: SocialProviderName, returnTo: string | null): string {
  const query = returnTo ? `?${new URLSearchParams({ r: returnTo }).toString()}` : '';
  return `/api/account/login/${provider}${query}`;
}

/** Google, Microsoft and Facebook sign-in (spec 000 §1, §2), and the operator's OpenID Connect provider under its
 * OIDC_LABEL (0060), only those the server has set up: none while the list loads or when it cannot be read, so no
 * button ever leads to 'not set up'. */
export function SocialButtons({ returnTo }: { returnTo: string | null }) {
  const providers = useProviders();
  const configured = providers.data?.configured ?? [];
  if (configured.length === 0) return null;
  return (
    <SimpleGrid cols={1} spacing="xs">
      {configured.map((provider) => {
        const Icon = icons[provider];
        return (
          <Button
            key={provider}
            component="a"
            href={socialSignInHref(provider, returnTo)}
            variant="default"
            leftSection={<Icon size={18} aria-hidden />}
          >
            {lm.social(providerName(provider, providers.data))}
          </Button>
        );
      })}
    </SimpleGrid>
  );
}
