import { useReducer, useState } from 'react';
import { Anchor, Button, Center, Group, Image, Stack, Text } from '@mantine/core';
import { IconDeviceMobileCode } from '@tabler/icons-react';
import type { MethodVerified, TotpSetup, UserDetail } from '#common/contract/account.ts';
import { securityMessages as sm } from '#common/messages.ts';
import type { RecentAuthRunner } from '#web/api/account/recent-auth.ts';
import { useTotpSetup } from '#web/api/account/totp-setup.ts';
import { useVerifyTotpCode } from '#web/api/account/verify-totp-code.ts';
import type { ApiSuccess } from '#web/api/query.ts';
import { CodeEntry } from '#web/ui/one-time-code/code-entry.tsx';
import { showFailure } from './failure-toast.ts';
import { MethodCard } from './method-card.tsx';
import { initialSetup, isSettingUp, setupReducer } from './method-setup.ts';
import { TotpKey } from './totp-key.tsx';

type AppCardProps = {
  detail: UserDetail | null;
  preferred: boolean;
  run: RecentAuthRunner;
  onVerified: (answer: ApiSuccess<MethodVerified>) => void;
};

/** The App card (spec 000 §2, §3, §4): a new secret as a QR code to scan (and the key, to type it in), then a code
 * of the app. The secret is pending until the code is right; setting up again replaces the app. */
export function AppCard({ detail, preferred, run, onVerified }: AppCardProps) {
  const [state, dispatch] = useReducer(setupReducer, initialSetup);
  const [secret, setSecret] = useState<TotpSetup | null>(null);
  const [verifyError, setVerifyError] = useState<string | null>(null);
  const start = useTotpSetup(run);
  const verify = useVerifyTotpCode(run);
  const verified = detail?.totpVerified ?? false;

  const begin = () => {
    start.mutate(undefined, {
      onSuccess: (answer) => {
        setSecret(answer.data);
        setVerifyError(null);
        dispatch({ type: 'start' });
        dispatch({ type: 'sent', target: answer.data.key });
      },
      onError: showFailure,
    });
  };
  const check = (code: string) => {
    setVerifyError(null);
    verify.mutate(code, {
      onSuccess: (answer) => {
        dispatch({ type: 'verified' });
        setSecret(null);
        onVerified(answer);
      },
      onError: (error) => setVerifyError(error.message),
    });
  };
  const cancel = () => {
    setSecret(null);
    dispatch({ type: 'cancel' });
  };

  return (
    <MethodCard
      method="Totp"
      icon={<IconDeviceMobileCode size={22} />}
      verified={verified}
      verifiedAt={detail?.dateTotpVerified ?? null}
      preferred={preferred}
      settingUp={isSettingUp(state)}
    >
      {state.step === 'code' && secret && (
        <Stack gap="sm">
          <Text size="sm">{sm.appScan}</Text>
          <Center>
            <Image
              src={secret.qr}
              alt={sm.appQrAlt}
              w={184}
              h={184}
              radius="sm"
              bg="white"
              p={6}
              style={{ imageRendering: 'pixelated' }}
            />
          </Center>
          <TotpKey secret={secret.key} />
          <Anchor href={secret.uri} size="sm" hiddenFrom="sm">
            {sm.appOpenLink}
          </Anchor>
          <CodeEntry mode="code" onSubmit={check} loading={verify.isPending} error={verifyError} />
          <Group justify="flex-end">
            <Button variant="subtle" color="gray" onClick={cancel}>
              {sm.cancel}
            </Button>
          </Group>
        </Stack>
      )}
      {!isSettingUp(state) && (
        <Button variant={verified ? 'default' : 'filled'} onClick={begin} loading={start.isPending}>
          {verified ? sm.redo : sm.setUp}
        </Button>
      )}
    </MethodCard>
  );
}
