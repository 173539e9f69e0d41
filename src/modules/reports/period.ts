import { z } from 'zod';
import { ValidationError } from '../../errors.ts';

const DAY_MS = 86_400_000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An ISO 8601 date (2025-03-31) or timestamp with offset (2025-03-31T12:00:00Z). */
export const isoDate = z
  .string()
  .trim()
  .refine((text) => parseIsoDate(text) !== null, 'must be an ISO 8601 date (YYYY-MM-DD) or timestamp with a time zone');

interface ParsedDate {
  at: Date;
  dateOnly: boolean;
}

function parseIsoDate(text: string): ParsedDate | null {
  const day = DATE_ONLY.exec(text);
  if (day) {
    const [year, month, date] = day.slice(1).map(Number);
    const at = new Date(Date.UTC(year, month - 1, date));
    return at.getUTCMonth() === month - 1 && at.getUTCDate() === date ? { at, dateOnly: true } : null;
  }
  if (!z.iso.datetime({ offset: true }).safeParse(text).success) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : { at, dateOnly: false };
}

/** A half-open interval [from, to). */
export interface Period {
  from: Date;
  to: Date;
}

/**
 * The range of date_from/date_to: a date alone means its whole day (UTC), so date_to=2025-03-31 includes
 * that day; a timestamp is taken as is (inclusive). Either end may be open.
 */
export function dateRange(dateFrom: string | null | undefined, dateTo: string | null | undefined): { from?: Date; before?: Date } {
  const from = dateFrom ? parseIsoDate(dateFrom)!.at : undefined;
  const end = dateTo ? parseIsoDate(dateTo)! : undefined;
  const before = end ? new Date(end.at.getTime() + (end.dateOnly ? DAY_MS : 1)) : undefined;
  if (from && before && from >= before) throw new ValidationError('dateTo', 'must not be before date_from');
  return { from, before };
}

export interface Quarter extends Period {
  year: number;
  quarter: number;
  label: string;
}

const quarterOf = (date: Date) => Math.floor(date.getUTCMonth() / 3) + 1;

/** A calendar quarter (UTC); year and quarter default to the current ones. A quarter that has not begun is refused. */
export function calendarQuarter(year: number | null | undefined, quarter: number | null | undefined, now = new Date()): Quarter {
  const y = year ?? now.getUTCFullYear();
  const q = quarter ?? quarterOf(now);
  if (!Number.isInteger(y) || y < 2000 || y > 2100) throw new ValidationError('year', 'must be a year between 2000 and 2100');
  if (!Number.isInteger(q) || q < 1 || q > 4) throw new ValidationError('quarter', 'must be 1, 2, 3 or 4');
  const from = new Date(Date.UTC(y, (q - 1) * 3, 1));
  if (from > now) throw new ValidationError('quarter', `Q${q} ${y} has not begun yet`);
  return { year: y, quarter: q, from, to: new Date(Date.UTC(y, q * 3, 1)), label: `Q${q} ${y}` };
}

/** A month (YYYY-MM, UTC) a period touches, and the part of the period that falls in it. */
export interface MonthRange extends Period {
  month: string;
}

/** The months a period touches, in order, each cut to the period. */
export function monthsOf(period: Period): MonthRange[] {
  const months: MonthRange[] = [];
  if (period.from >= period.to) return months;
  let start = new Date(Date.UTC(period.from.getUTCFullYear(), period.from.getUTCMonth(), 1));
  while (start < period.to) {
    const next = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    months.push({
      month: start.toISOString().slice(0, 7),
      from: start < period.from ? period.from : start,
      to: next > period.to ? period.to : next,
    });
    start = next;
  }
  return months;
}

/** The rolling window the executive summary covers. */
export const EXECUTIVE_WINDOW_DAYS = 90;

export function trailingDays(days: number, now = new Date()): Period {
  return { from: new Date(now.getTime() - days * DAY_MS), to: now };
}
