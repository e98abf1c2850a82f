import { useId, useRef, useState } from 'react';
import type { ClipboardEvent, KeyboardEvent } from 'react';
import { Group, Input, Text, TextInput } from '@mantine/core';
import { PHONE_COUNTRY_CODE, PHONE_GROUPS } from '#common/limits.ts';
import { twoFactorMessages as tm } from '#common/messages.ts';

type PhoneInputProps = {
  label: string;
  /** The starting number, E.164 ('+15551234567'), or ''. The boxes keep their own digits after that (a number
   * is split into boxes only once); to start over, give the input a new `key`. */
  defaultValue?: string;
  /** The number as E.164: '+1' and the digits typed so far ('' when none), for phoneField to judge. */
  onChange: (e164: string) => void;
  error?: string | null;
  disabled?: boolean;
};

const boxLabels = [tm.phoneAreaCode, tm.phonePrefix, tm.phoneLine] as const;
const DIGITS = PHONE_GROUPS.reduce((sum: number, n: number) => sum + n, 0);

/** Splits up to ten national digits into the boxes, in order. */
function split(digits: string): string[] {
  let start = 0;
  return PHONE_GROUPS.map((size) => {
    const part = digits.slice(start, start + size);
    start += size;
    return part;
  });
}

/** The national digits of a typed or pasted number: '+1 (555) 123-4567', '15551234567' and '5551234567' all give
 * '5551234567'. */
function nationalDigits(text: string): string {
  const digits = text.replace(/\D/g, '');
  return digits.length === DIGITS + 1 && digits.startsWith('1') ? digits.slice(1) : digits;
}

/** The national digits of a starting value: after '+1' every digit is national, even in a number cut short. */
function startingDigits(value: string): string {
  const digits = value.startsWith(PHONE_COUNTRY_CODE)
    ? value.slice(PHONE_COUNTRY_CODE.length).replace(/\D/g, '')
    : nationalDigits(value);
  return digits.slice(0, DIGITS);
}

/** A US phone number (spec 000 §5): +1, then boxes of 3, 3 and 4 digits. A full box moves on to the next,
 * Backspace in an empty box goes back to the one before, and a whole number pasted into any box fills all three. */
export function PhoneInput({ label, defaultValue = '', onChange, error, disabled }: PhoneInputProps) {
  const [parts, setParts] = useState(() => split(startingDigits(defaultValue)));
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const id = useId();

  const update = (next: string[]) => {
    setParts(next);
    const digits = next.join('');
    onChange(digits === '' ? '' : PHONE_COUNTRY_CODE + digits);
  };
  const focus = (index: number) => boxes.current[index]?.focus();

  const onType = (index: number, text: string) => {
    const size = PHONE_GROUPS[index] ?? 0;
    const part = text.replace(/\D/g, '').slice(0, size);
    update(parts.map((old, i) => (i === index ? part : old)));
    if (part.length === size && index < PHONE_GROUPS.length - 1) focus(index + 1);
  };
  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && event.currentTarget.value === '' && index > 0) {
      event.preventDefault();
      focus(index - 1);
    }
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const digits = nationalDigits(event.clipboardData.getData('text/plain'));
    // Only a whole number fills every box; a piece is typed into this box as usual.
    if (digits.length !== DIGITS) return;
    event.preventDefault();
    update(split(digits));
    focus(PHONE_GROUPS.length - 1);
  };

  return (
    <Input.Wrapper label={label} error={error} id={id} labelElement="div">
      <Group gap="xs" wrap="nowrap" role="group" aria-labelledby={`${id}-label`}>
        <Text fw={500} aria-hidden>
          {PHONE_COUNTRY_CODE}
        </Text>
        {PHONE_GROUPS.map((size, index) => (
          <TextInput
            key={index}
            ref={(element) => {
              boxes.current[index] = element;
            }}
            aria-label={boxLabels[index]}
            inputMode="numeric"
            autoComplete={index === 0 ? 'tel-national' : 'off'}
            maxLength={size}
            w={`${size + 2.5}ch`}
            styles={{ input: { textAlign: 'center' } }}
            value={parts[index] ?? ''}
            onChange={(event) => onType(index, event.currentTarget.value)}
            onKeyDown={(event) => onKeyDown(index, event)}
            onPaste={onPaste}
            error={Boolean(error)}
            disabled={disabled}
          />
        ))}
      </Group>
    </Input.Wrapper>
  );
}
