import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { twoFactorMessages as tm } from '#common/messages.ts';
import { MethodChoice } from './method-choice.tsx';
import { renderPage } from '#web/test/render-page.tsx';

const radio = (name: string) => screen.getByRole<HTMLInputElement>('radio', { name: new RegExp(`^${name}`) });

describe('MethodChoice', () => {
  it('offers the allowed methods in order, with their names, the preferred one chosen', () => {
    const onChange = vi.fn();
    renderPage(
      <MethodChoice allowed={['Recovery', 'Totp', 'Email', 'Phone']} value="Email" onChange={onChange} />,
    );
    expect(screen.getByRole('radiogroup', { name: tm.methodChoice })).toBeTruthy();
    const names = screen.getAllByRole('radio').map((element) => element.getAttribute('value'));
    expect(names).toEqual(['Email', 'Phone', 'Totp', 'Recovery']);
    expect(radio('Email').checked).toBe(true);
    expect(radio('App').checked).toBe(false);
    expect(screen.getByText(tm.methodDescriptions.Totp)).toBeTruthy();
    expect(screen.getByText('Recovery code')).toBeTruthy();
    expect(screen.queryByRole('radio', { name: /^Passkey/ })).toBeNull();

    fireEvent.click(radio('App'));
    expect(onChange).toHaveBeenCalledWith('Totp');
    fireEvent.click(radio('Recovery code'));
    expect(onChange).toHaveBeenLastCalledWith('Recovery');
  });

  it('names every method as the spec does', () => {
    renderPage(
      <MethodChoice
        allowed={['Email', 'Phone', 'Totp', 'Passkey', 'Recovery']}
        value="Passkey"
        onChange={() => undefined}
      />,
    );
    for (const name of ['Email', 'Phone', 'App', 'Passkey', 'Recovery code']) {
      expect(radio(name)).toBeTruthy();
    }
    expect(radio('Passkey').checked).toBe(true);
  });

  it('cannot be changed when disableSelect2fa says so', () => {
    const onChange = vi.fn();
    renderPage(<MethodChoice allowed={['Email', 'Recovery']} value="Email" onChange={onChange} disabled />);
    for (const element of screen.getAllByRole<HTMLInputElement>('radio')) {
      expect(element.disabled).toBe(true);
    }
    fireEvent.click(radio('Recovery code'));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('is not shown for a single method', () => {
    const { container } = renderPage(
      <MethodChoice allowed={['Totp']} value="Totp" onChange={() => undefined} />,
    );
    expect(screen.queryByRole('radiogroup')).toBeNull();
    expect(container.querySelector('input')).toBeNull();
  });
});
