import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { LinkedText, linkedTextParts } from './linked-text.tsx';
import { renderPage } from '#web/test/render-page.tsx';

describe('linkedTextParts', () => {
  it('turns Markdown links to site paths and https addresses into links', () => {
    expect(
      linkedTextParts('See [Data migration](/services/data-migration) or [docs](https://example.com/a).'),
    ).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'Data migration', href: '/services/data-migration' },
      { kind: 'text', text: ' or ' },
      { kind: 'link', text: 'docs', href: 'https://example.com/a' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('links bare https addresses and e-mail addresses without their sentence punctuation', () => {
    expect(linkedTextParts('Go to https://example.com/x. Or write to help@example.com.')).toEqual([
      { kind: 'text', text: 'Go to ' },
      { kind: 'link', text: 'https://example.com/x', href: 'https://example.com/x' },
      { kind: 'text', text: '. Or write to ' },
      { kind: 'link', text: 'help@example.com', href: 'mailto:help@example.com' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('keeps links to anywhere else as text', () => {
    expect(
      linkedTextParts('[click](javascript:alert(1)) [x](//evil.example) [y](http://plain.example)'),
    ).toEqual([{ kind: 'text', text: '[click](javascript:alert(1)) x y' }]);
  });
});

describe('LinkedText', () => {
  it('renders HTML in a message as text', () => {
    renderPage(
      <p data-testid="m">
        <LinkedText text={'<img src=x onerror=alert(1)> see [About](/about)'} />
      </p>,
    );
    const paragraph = screen.getByTestId('m');
    expect(paragraph.querySelector('img')).toBeNull();
    expect(paragraph.textContent).toBe('<img src=x onerror=alert(1)> see About');
    expect(screen.getByRole('link', { name: 'About' }).getAttribute('href')).toBe('/about');
  });
});
