import { isAbsolute } from 'node:path';
import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';

/** Scheduled syncs may not come closer together than this (the feeds change weekly at most). */
export const MIN_SCHEDULE_INTERVAL_MS = 3_600_000;
const CRON_MACRO = /^@(yearly|annually|monthly|weekly|daily|midnight|hourly)$/;

const checkedSchedules = new Map<string, string | null>();

/** Why `pattern` is not an acceptable schedule, or null: 5 cron fields (or a macro), UTC, at most hourly. */
export function scheduleProblem(pattern: string): string | null {
  // Remembered per pattern: walking 30 occurrences costs tens of milliseconds, and every start checks each source's.
  let problem = checkedSchedules.get(pattern);
  if (problem === undefined) {
    if (checkedSchedules.size >= 100) checkedSchedules.clear();
    checkedSchedules.set(pattern, (problem = findScheduleProblem(pattern)));
  }
  return problem;
}

function findScheduleProblem(pattern: string): string | null {
  if (!CRON_MACRO.test(pattern) && pattern.split(/\s+/).length !== 5) {
    return 'must be a cron expression with 5 fields (minute hour day-of-month month day-of-week, UTC) or null';
  }
  try {
    const expression = CronExpressionParser.parse(pattern, { tz: 'UTC' });
    let previous = expression.next().getTime();
    for (let i = 0; i < 30; i++) {
      const next = expression.next().getTime();
      if (next - previous < MIN_SCHEDULE_INTERVAL_MS) return 'must not run more often than once an hour';
      previous = next;
    }
  } catch (error) {
    return `is not a valid cron expression (${(error as Error).message})`;
  }
  return null;
}

/** Why `location` cannot be read by an importer, or null: an http(s) URL, a file: URL or an absolute path. */
export function locationProblem(location: string): string | null {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(location)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https' || scheme === 'file') {
    let url: URL;
    try {
      url = new URL(location);
    } catch {
      return 'is not a valid URL';
    }
    if (url.username || url.password) return 'must not carry credentials (user:password@)';
    if (scheme === 'file') return url.host && url.host !== 'localhost' ? 'file: URLs must name a local path (file:///…)' : null;
    return url.hostname ? null : 'must name a host';
  }
  if (isAbsolute(location)) return null;
  return 'must be an http(s) URL, a file: URL or an absolute path';
}

const schedule = z
  .string()
  .trim()
  .transform((value) => value || null)
  .nullable()
  .superRefine((value, ctx) => {
    const problem = value === null ? null : scheduleProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const updateDataSourceSchema = z
  .object({
    location: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(2048, 'must be at most 2048 characters')
      .superRefine((value, ctx) => {
        const problem = locationProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    schedule,
    enabled: z.boolean(),
  })
  .partial();
