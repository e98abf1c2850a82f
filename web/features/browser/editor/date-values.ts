/*
 * Dates and times between the wire and the pickers. The wire carries ISO text as the database holds it
 * (server/engines/wire-values.ts): '2024-03-05', '2024-03-05T14:03:00.1234567', '2024-03-05T14:03:00+02:00',
 * '14:03:00'. The pickers work on wall-clock text ('YYYY-MM-DD HH:mm:ss'). The form shows and edits a value in its
 * own offset, never converted to the browser's time zone, so what a person reads is what the database holds and a
 * picked time keeps the offset it had; only a new value of a type with an offset takes the browser's offset.
 */

const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::(\d{2}))?(\.\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const TIME = /^(\d{2}:\d{2})(?::(\d{2}))?(\.\d+)?$/;

/** A wire date split into its parts; null when it is not ISO date text (then the form shows it as plain text). */
export interface WireDate {
  date: string;
  /** HH:mm:ss ('00:00:00' when the text has no time). */
  time: string;
  /** The offset as written ('Z', '+02:00'), or null. */
  offset: string | null;
}

/** The parts of ISO date or date-time text. */
export function parseWireDate(text: string): WireDate | null {
  const match = DATE_TIME.exec(text.trim());
  if (!match?.[1]) return null;
  const [, date, minutes, seconds, , offset] = match;
  return { date, time: minutes ? `${minutes}:${seconds ?? '00'}` : '00:00:00', offset: offset ?? null };
}

/** The picker's value of a wire date: 'YYYY-MM-DD' for a date, 'YYYY-MM-DD HH:mm:ss' for a date and time. */
export function pickerValue(text: string | null, withTime: boolean): string | null {
  if (text === null) return null;
  const parts = parseWireDate(text);
  if (!parts) return null;
  return withTime ? `${parts.date} ${parts.time}` : parts.date;
}

/** The browser's offset on a wall-clock date, as ±HH:MM. */
export function localOffset(wallClock: string): string {
  const minutes = -new Date(wallClock.replace(' ', 'T')).getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Whether a date type stores an offset (a new value then carries one). */
export const typeHasOffset = (type: string) => /offset|tz|time zone/i.test(type);

/**
 * The wire text of a picked value: a date alone for a date column; otherwise 'YYYY-MM-DDTHH:mm:ss' with the
 * previous value's offset, or the browser's when there was none and the type keeps one.
 */
export function wireDate(picked: string | null, withTime: boolean, previous: string | null, type: string) {
  if (picked === null || picked === '') return null;
  const [date = picked, time = '00:00:00'] = picked.split(' ');
  if (!withTime) return date;
  const wall = `${date}T${time.length === 5 ? `${time}:00` : time}`;
  const before = previous === null ? null : parseWireDate(previous);
  const offset = before ? before.offset : typeHasOffset(type) ? localOffset(wall) : null;
  return `${wall}${offset ?? ''}`;
}

/** The time input's value of wire time text ('HH:mm:ss'); null when it is not time text. */
export function timeValue(text: string | null): string | null {
  if (text === null) return null;
  const match = TIME.exec(text.trim());
  return match?.[1] ? `${match[1]}:${match[2] ?? '00'}` : null;
}
