import { Fragment } from 'react';
import { Link } from 'react-router';
import { Anchor, VisuallyHidden } from '@mantine/core';

/** A piece of a message: plain text, or a link with the words shown and where it goes. */
export type LinkedTextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

// A Markdown link [label](target), a bare https:// address, or an e-mail address; whichever comes first.
const LINKISH =
  /\[([^\]\n]{1,300})\]\(([^()\s]{1,2000})\)|https:\/\/[^\s<>()[\]]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
// Sentence punctuation after a bare address belongs to the sentence, not to the address.
const TRAILING = /[.,;:!?'"]+$/;

/** Where a link may go: a path of this site (not //host) or an https address; anything else stays text. */
export function safeHref(target: string): string | null {
  if (target.startsWith('/') && !target.startsWith('//') && !target.includes('\\')) return target;
  if (/^https:\/\/[^/\s]/i.test(target)) return target;
  return null;
}

/**
 * Splits a message written as plain text with Markdown links (Titan's replies) into text and links: `[label](/path)`
 * and `[label](https://…)`, bare https:// addresses and e-mail addresses (mailto). A link to anywhere else (such as
 * `javascript:`) stays as its text. Never HTML: the parts are rendered as text nodes.
 */
export function linkedTextParts(text: string): LinkedTextPart[] {
  const parts: LinkedTextPart[] = [];
  const pushText = (value: string) => {
    if (!value) return;
    const last = parts.at(-1);
    if (last?.kind === 'text') last.text += value;
    else parts.push({ kind: 'text', text: value });
  };
  let at = 0;
  for (const match of text.matchAll(LINKISH)) {
    const start = match.index;
    let whole = match[0];
    pushText(text.slice(at, start));
    if (match[1] !== undefined && match[2] !== undefined) {
      const href = safeHref(match[2]);
      if (href) parts.push({ kind: 'link', text: match[1], href });
      else pushText(match[1]);
    } else if (whole.startsWith('https://')) {
      whole = whole.replace(TRAILING, '');
      parts.push({ kind: 'link', text: whole, href: whole });
    } else {
      whole = whole.replace(TRAILING, '');
      parts.push({ kind: 'link', text: whole, href: `mailto:${whole}` });
    }
    at = start + whole.length;
  }
  pushText(text.slice(at));
  return parts;
}

export interface LinkedTextProps {
  text: string;
  /** Called when a link of this site is followed (a chat can shrink, for example). */
  onNavigate?: () => void;
}

/** A message as text with its links: this site's paths as in-app links, https addresses in a new tab. */
export function LinkedText({ text, onNavigate }: LinkedTextProps) {
  return (
    <>
      {linkedTextParts(text).map((part, index) =>
        part.kind === 'text' ? (
          <Fragment key={index}>{part.text}</Fragment>
        ) : part.href.startsWith('/') ? (
          <Anchor key={index} component={Link} to={part.href} onClick={onNavigate} inherit underline="always">
            {part.text}
          </Anchor>
        ) : (
          <Anchor
            key={index}
            href={part.href}
            inherit
            underline="always"
            {...(part.href.startsWith('https://') ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
          >
            {part.text}
            {part.href.startsWith('https://') && <VisuallyHidden>{' (opens in a new tab)'}</VisuallyHidden>}
          </Anchor>
        ),
      )}
    </>
  );
}
