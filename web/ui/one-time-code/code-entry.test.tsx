import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { accountMessages, accountApiMessages, twoFactorMessages as tm } from '#common/messages.ts';
import { CodeEntry } from './code-entry.tsx';
import { renderPage } from '#web/test/render-page.tsx';

const digit = (position: number) => screen.getByLabelText<HTMLInputElement>(tm.codeDigit(position, 6));
const verify = () => screen.getByRole<HTMLButtonElement>('button', { name: tm.verify });
const paste = (element: HTMLElement, text: string) =>
  fireEvent.paste(element, { clipboardData: { getData: () => text } });

describe('CodeEntry, one-time code', () => {
  it('has six labelled digit boxes in a labelled group, for phone one-time-code fill', () => {
    renderPage(<CodeEntry mode="code" onSubmit={() => undefined} />);
    expect(screen.getByRole('group', { name: tm.codeLabel })).toBeTruthy();
    for (let position = 1; position <= 6; position += 1) {
      const box = digit(position);
      expect(box.getAttribute('inputmode')).toBe('numeric');
      expect(box.getAttribute('autocomplete')).toBe('one-time-code');
    }
    expect(document.activeElement).toBe(digit(1));
  });

  it('fills every box from a pasted code and submits it', () => {
    const onSubmit = vi.fn();
    renderPage(<CodeEntry mode="code" onSubmit={onSubmit} />);
    paste(digit(1), '123456');
    expect([1, 2, 3, 4, 5, 6].map((position) => digit(position).value).join('')).toBe('123456');
    expect(onSubmit).toHaveBeenCalledWith('123456');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('accepts a pasted code with spaces, and refuses one with letters', () => {
    const onSubmit = vi.fn();
    renderPage(<CodeEntry mode="code" onSubmit={onSubmit} />);
    paste(digit(3), '12a456');
    expect(digit(1).value).toBe('');
    expect(onSubmit).not.toHaveBeenCalled();
    paste(digit(1), '654 321');
    expect(onSubmit).toHaveBeenCalledWith('654321');
  });

  it('moves to the next box as digits are typed and submits when complete', () => {
    const onSubmit = vi.fn();
    renderPage(<CodeEntry mode="code" onSubmit={onSubmit} />);
    '98765'.split('').forEach((character, index) => {
      fireEvent.change(digit(index + 1), { target: { value: character } });
      expect(document.activeElement).toBe(digit(index + 2));
    });
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(digit(6), { target: { value: '4' } });
    expect(onSubmit).toHaveBeenCalledWith('987654');
  });

  it('takes no letters', () => {
    renderPage(<CodeEntry mode="code" onSubmit={() => undefined} />);
    fireEvent.change(digit(1), { target: { value: 'a' } });
    expect(digit(1).value).toBe('');
  });

  it("says what is wrong when Verify is pressed early: the spec's two messages", () => {
    const onSubmit = vi.fn();
    renderPage(<CodeEntry mode="code" onSubmit={onSubmit} />);
    fireEvent.click(verify());
    expect(screen.getByText(accountMessages.otpRequired)).toBeTruthy();
    fireEvent.change(digit(1), { target: { value: '1' } });
    expect(screen.queryByText(accountMessages.otpRequired)).toBeNull();
    fireEvent.change(digit(2), { target: { value: '2' } });
    fireEvent.click(verify());
    expect(screen.getByText(accountMessages.otpSixDigits)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("shows the server's answer, and waits while a check is on its way", () => {
    const onSubmit = vi.fn();
    const { rerender } = renderPage(
      <CodeEntry mode="code" onSubmit={onSubmit} error={accountMessages.otpFailed} />,
    );
    expect(screen.getByText(accountMessages.otpFailed)).toBeTruthy();
    rerender(<CodeEntry mode="code" onSubmit={onSubmit} loading />);
    expect(digit(1).disabled).toBe(true);
    fireEvent.submit(verify().closest('form') as HTMLFormElement);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits again by the button once complete (after a failed try)', () => {
    const onSubmit = vi.fn();
    renderPage(<CodeEntry mode="code" onSubmit={onSubmit} />);
    paste(digit(1), '111111');
    expect(onSubmit).toHaveBeenCalledTimes(1);
    fireEvent.click(verify());
    expect(onSubmit).toHaveBeenCalledTimes(2);
    expect(onSubmit).toHaveBeenLastCalledWith('111111');
  });
});

describe('CodeEntry, recovery code', () => {
  const box = () => screen.getByRole<HTMLInputElement>('textbox', { name: tm.recoveryLabel });

  it('takes a recovery code as written and submits it as the contract reads it', () => {
    const onSubmit = vi.fn();
    renderPage(<CodeEntry mode="recovery" onSubmit={onSubmit} />);
    expect(box().getAttribute('placeholder')).toBe(tm.recoveryPlaceholder);
    fireEvent.change(box(), { target: { value: ' AB12C-de34f ' } });
    fireEvent.click(verify());
    expect(onSubmit).toHaveBeenCalledWith('ab12cde34f');
  });

  it('says what is wrong with an empty or malformed code', () => {
    const onSubmit = vi.fn();
    renderPage(<CodeEntry mode="recovery" onSubmit={onSubmit} />);
    fireEvent.click(verify());
    expect(screen.getByText(accountMessages.otpRequired)).toBeTruthy();
    fireEvent.change(box(), { target: { value: 'abc' } });
    fireEvent.submit(box().closest('form') as HTMLFormElement);
    expect(screen.getByText(accountApiMessages.recoveryCodeFormat)).toBeTruthy();
    expect(box().getAttribute('aria-invalid')).toBe('true');
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
