import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Button, Input, PinInput, Stack, TextInput } from '@mantine/core';
import { otpField, recoveryCodeField } from '#common/contract/account.ts';
import { OTP_LENGTH } from '#common/limits.ts';
import { twoFactorMessages as tm } from '#common/messages.ts';

type CodeEntryProps = {
  /** A six-digit one-time code, or a recovery code (selected2fa Recovery). */
  mode: 'code' | 'recovery';
  /** Called with the code as the contract reads it (a recovery code without spaces or dashes, lower case). */
  onSubmit: (code: string) => void;
  /** A verification is on its way: the entry and button wait. */
  loading?: boolean;
  /** The server's answer to the last try, shown under the entry. */
  error?: string | null;
};

/** The second step's code (spec 000 §2, §5): one box per digit that submits itself once all six are there
 * (typed, pasted or filled by the phone's one-time-code suggestion), or one text box for a recovery code; the
 * Verify button submits too, and a wrong entry gets the contract's message. */
export function CodeEntry({ mode, onSubmit, loading = false, error = null }: CodeEntryProps) {
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const id = useId();
  const field = mode === 'recovery' ? recoveryCodeField : otpField;

  const submit = (code: string) => {
    if (loading) return;
    const parsed = field.safeParse(code);
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setInvalid(null);
    onSubmit(parsed.data);
  };
  const onFormSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit(value);
  };
  const shown = invalid ?? error;

  return (
    <form onSubmit={onFormSubmit} noValidate>
      <Stack gap="sm">
        {mode === 'code' ? (
          <Input.Wrapper label={tm.codeLabel} error={shown} id={id} labelElement="div">
            <PinInput
              length={OTP_LENGTH}
              type="number"
              inputMode="numeric"
              oneTimeCode
              autoFocus
              value={value}
              onChange={(next) => {
                setValue(next);
                setInvalid(null);
              }}
              onComplete={submit}
              disabled={loading}
              error={Boolean(shown)}
              getInputProps={(index) => ({ 'aria-label': tm.codeDigit(index + 1, OTP_LENGTH) })}
              role="group"
              aria-labelledby={`${id}-label`}
            />
          </Input.Wrapper>
        ) : (
          <TextInput
            label={tm.recoveryLabel}
            placeholder={tm.recoveryPlaceholder}
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            value={value}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              setInvalid(null);
            }}
            disabled={loading}
            error={shown}
          />
        )}
        <Button type="submit" loading={loading}>
          {tm.verify}
        </Button>
      </Stack>
    </form>
  );
}
