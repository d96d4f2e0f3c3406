/**
 * RFC 3339 `date-time` (section 5.6): `2027-06-30T12:00:00Z`, with optional fractions of a second
 * and a `Z` or `±hh:mm` offset; `T` and `Z` in either case.
 */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * Why the text is no RFC 3339 date-time that exists, or null: a date that no calendar has (month
 * 13, February 30), an hour 24 or an offset beyond ±23:59 is refused, never moved to another
 * instant. A leap second (:60) is refused too: JavaScript cannot hold it.
 */
export function dateTimeProblem(text: string): string | null {
  const match = DATE_TIME.exec(text);
  if (!match) return 'must be an RFC 3339 date-time such as 2027-06-30T12:00:00Z';
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  if (month < 1 || month > 12) return `has no month ${match[2]}`;
  if (day < 1 || day > daysIn(year, month)) return `has no day ${match[3]} in month ${match[2]}`;
  if (hour > 23 || minute > 59 || second > 59)
    return `has no time ${match[4]}:${match[5]}:${match[6]}`;
  if (match[8].length > 1 && (Number(match[10]) > 23 || Number(match[11]) > 59)) {
    return `has no time offset ${match[8]}`;
  }
  return null;
}

/** RFC 3339 `full-date` (section 5.6): `2024-03-01`, a calendar day with no time or zone. */
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Why the text is no RFC 3339 full-date that exists (`2024-03-01`; no February 30), or null. */
export function fullDateProblem(text: string): string | null {
  const match = FULL_DATE.exec(text);
  if (!match) return 'must be a full-date such as 2024-03-01';
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || year < 1) {
    return `has no day ${match[3]} in month ${match[2]}`;
  }
  return null;
}

/** The instant of a date-time `dateTimeProblem` accepts. */
export const instantOf = (text: string) => new Date(text);
