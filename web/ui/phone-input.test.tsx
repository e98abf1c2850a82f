import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { phoneField } from '#common/contract/account.ts';
import { accountMessages, twoFactorMessages as tm } from '#common/messages.ts';
import { PhoneInput } from '#web/ui/phone-input.tsx';
import { renderPage } from '#web/test/render-page.tsx';

const area = () => screen.getByRole<HTMLInputElement>('textbox', { name: tm.phoneAreaCode });
const prefix = () => screen.getByRole<HTMLInputElement>('textbox', { name: tm.phonePrefix });
const line = () => screen.getByRole<HTMLInputElement>('textbox', { name: tm.phoneLine });
const values = () => [area(), prefix(), line()].map((box) => box.value);
const paste = (element: HTMLElement, text: string) =>
  fireEvent.paste(element, { clipboardData: { getData: () => text } });

function renderPhone(props: { defaultValue?: string; error?: string } = {}) {
  const onChange = vi.fn<(e164: string) => void>();
  renderPage(<PhoneInput label="Phone" onChange={onChange} {...props} />);
  return onChange;
}

describe('PhoneInput', () => {
  it('shows +1 and three labelled boxes of 3, 3 and 4 digits in a labelled group', () => {
    renderPhone();
    expect(screen.getByRole('group', { name: 'Phone' })).toBeTruthy();
    expect(screen.getByText('+1')).toBeTruthy();
    expect([area(), prefix(), line()].map((box) => box.maxLength)).toEqual([3, 3, 4]);
    expect(area().getAttribute('inputmode')).toBe('numeric');
  });

  it('moves on when a box is full and answers the E.164 number', () => {
    const onChange = renderPhone();
    area().focus();
    fireEvent.change(area(), { target: { value: '55' } });
    expect(document.activeElement).toBe(area());
    expect(onChange).toHaveBeenLastCalledWith('+155');
    fireEvent.change(area(), { target: { value: '555' } });
    expect(document.activeElement).toBe(prefix());
    fireEvent.change(prefix(), { target: { value: '123' } });
    expect(document.activeElement).toBe(line());
    fireEvent.change(line(), { target: { value: '4567' } });
    expect(document.activeElement).toBe(line());
    expect(onChange).toHaveBeenLastCalledWith('+15551234567');
    expect(phoneField.safeParse(onChange.mock.lastCall?.[0]).success).toBe(true);
  });

  it('keeps only digits', () => {
    const onChange = renderPhone();
    fireEvent.change(area(), { target: { value: '5a5-' } });
    expect(area().value).toBe('55');
    expect(onChange).toHaveBeenLastCalledWith('+155');
  });

  it('goes back to the box before on Backspace in an empty box', () => {
    renderPhone({ defaultValue: '+1555123' });
    expect(values()).toEqual(['555', '123', '']);
    line().focus();
    fireEvent.keyDown(line(), { key: 'Backspace' });
    expect(document.activeElement).toBe(prefix());
    fireEvent.keyDown(prefix(), { key: 'Backspace' });
    // Not empty: Backspace deletes in this box as usual.
    expect(document.activeElement).toBe(prefix());
    fireEvent.change(prefix(), { target: { value: '' } });
    fireEvent.keyDown(prefix(), { key: 'Backspace' });
    expect(document.activeElement).toBe(area());
    fireEvent.keyDown(area(), { key: 'Backspace' });
    expect(document.activeElement).toBe(area());
  });

  it('fills all three boxes from a whole pasted number, in any of its usual forms', () => {
    const onChange = renderPhone();
    for (const text of ['5551234567', '+1 (555) 123-4567', '1-555-123-4567']) {
      paste(prefix(), text);
      expect(values()).toEqual(['555', '123', '4567']);
      expect(onChange).toHaveBeenLastCalledWith('+15551234567');
      expect(document.activeElement).toBe(line());
      fireEvent.change(area(), { target: { value: '' } });
      fireEvent.change(prefix(), { target: { value: '' } });
      fireEvent.change(line(), { target: { value: '' } });
    }
    expect(onChange).toHaveBeenLastCalledWith('');
  });

  it('leaves a pasted piece of a number to the box', () => {
    const onChange = renderPhone();
    paste(area(), '555');
    expect(values()).toEqual(['', '', '']);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('starts from a number and shows the message it is given', () => {
    renderPhone({ defaultValue: '+15559876543', error: accountMessages.phoneInvalid });
    expect(values()).toEqual(['555', '987', '6543']);
    expect(screen.getByText(accountMessages.phoneInvalid)).toBeTruthy();
    expect(area().getAttribute('aria-invalid')).toBe('true');
  });

  it("answers what phoneField judges: 'Phone is required.' when empty, 'Invalid Phone Number.' when short", () => {
    const onChange = renderPhone();
    fireEvent.change(area(), { target: { value: '555' } });
    const short = phoneField.safeParse(onChange.mock.lastCall?.[0]);
    expect(short.error?.issues[0]?.message).toBe(accountMessages.phoneInvalid);
    fireEvent.change(area(), { target: { value: '' } });
    const empty = phoneField.safeParse(onChange.mock.lastCall?.[0]);
    expect(empty.error?.issues[0]?.message).toBe(accountMessages.phoneRequired);
  });
});
