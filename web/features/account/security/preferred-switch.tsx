import { useId, useState } from 'react';
import { Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TwoFactorMethod } from '#common/contract/account.ts';
import { accountMessages as m, securityMessages as sm } from '#common/messages.ts';
import { usePreferred2fa } from '#web/api/account/preferred-2fa.ts';

type PreferredSwitchProps = {
  method: TwoFactorMethod;
  verified: boolean;
  preferred: boolean;
};

/** 'Make preferred' (spec 000 §4): only a verified method can be chosen, the switch is disabled once it is the
 * preferred one, and a failure rolls the choice back. It turns on at once and the server's answer confirms it. */
export function PreferredSwitch({ method, verified, preferred }: PreferredSwitchProps) {
  const save = usePreferred2fa();
  const [choosing, setChoosing] = useState(false);
  const checked = preferred || choosing;

  const choose = () => {
    if (checked || !verified) return;
    setChoosing(true);
    save.mutate(method, {
      onSuccess: () => notifications.show({ color: 'green', message: m.preferred2faUpdated }),
      onError: () => notifications.show({ color: 'red', message: m.preferred2faFailed }),
      // Success: the saved user now says preferred. Failure: back to what the server has (the roll-back).
      onSettled: () => setChoosing(false),
    });
  };

  const hintId = useId();
  return (
    <Stack gap={4}>
      <Switch
        label={sm.makePreferred}
        aria-describedby={verified ? undefined : hintId}
        checked={checked}
        disabled={!verified || checked}
        onChange={(event) => {
          if (event.currentTarget.checked) choose();
        }}
      />
      {!verified && (
        <Text id={hintId} size="xs" c="dimmed">
          {sm.cannotPreferUnverified}
        </Text>
      )}
    </Stack>
  );
}
