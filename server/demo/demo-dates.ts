// Text forms of the demo's date and time values. SQLite has no date types, so each declared type gets the ISO-8601
// text its SQL Server namesake would show, computed from UTC milliseconds (never the machine's time zone).

const MINUTE = 60_000;
const DAY = 86_400_000;

/** `YYYY-MM-DD` per day number, cached: Date.toISOString is slow enough to matter over 200,000 values. */
const dayTexts = new Map<number, string>();

/** Milliseconds since the epoch for a UTC calendar date. */
export function utc(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day);
}

/** DATE: `2024-03-05`. */
export function dateText(ms: number): string {
  const day = Math.floor(ms / DAY);
  let text = dayTexts.get(day);
  if (text === undefined) {
    text = new Date(day * DAY).toISOString().slice(0, 10);
    dayTexts.set(day, text);
  }
  return text;
}

/** DATETIME: `2024-03-05T14:07:09.123` (milliseconds). */
export function dateTimeText(ms: number): string {
  const msOfDay = ms - Math.floor(ms / DAY) * DAY;
  const hours = Math.floor(msOfDay / 3_600_000);
  const minutes = Math.floor(msOfDay / MINUTE) % 60;
  const seconds = Math.floor(msOfDay / 1000) % 60;
  const milliseconds = msOfDay % 1000;
  return `${dateText(ms)}T${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(milliseconds, 3)}`;
}

/** DATETIME2: `2024-03-05T14:07:09.1234567` (seven fractional digits; the last four come from `tenthsOfMicros`). */
export function dateTime2Text(ms: number, tenthsOfMicros: number): string {
  return `${dateTimeText(ms)}${pad(tenthsOfMicros % 10_000, 4)}`;
}

/** SMALLDATETIME: `2024-03-05T14:07:00` (whole minutes). */
export function smallDateTimeText(ms: number): string {
  return `${dateTimeText(ms).slice(0, 16)}:00`;
}

/** TIMESTAMP: `2024-03-05T14:07:09` (whole seconds). */
export function timestampText(ms: number): string {
  return dateTimeText(ms).slice(0, 19);
}

/** DATETIMEOFFSET: the wall-clock time at `offsetMinutes` from UTC, `2024-03-05T15:07:09.123+01:00`. */
export function dateTimeOffsetText(ms: number, offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const hours = Math.floor(Math.abs(offsetMinutes) / 60);
  const minutes = Math.abs(offsetMinutes) % 60;
  return `${dateTimeText(ms + offsetMinutes * MINUTE)}${sign}${pad(hours, 2)}:${pad(minutes, 2)}`;
}

/** TIME: `14:30:00` from minutes after midnight. */
export function timeText(minutesAfterMidnight: number): string {
  return `${pad(Math.floor(minutesAfterMidnight / 60) % 24, 2)}:${pad(minutesAfterMidnight % 60, 2)}:00`;
}

function pad(value: number, digits: number): string {
  return String(value).padStart(digits, '0');
}
