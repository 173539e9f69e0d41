import { isAbsolute } from 'node:path';
import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';

const CRON_MACRO = /^@(yearly|annually|monthly|weekly|daily|midnight|hourly)$/;

/** Why `pattern` is not an acceptable schedule, or null: 5 cron fields (or a macro), UTC, at most hourly (the feeds change weekly at most). */
export function scheduleProblem(pattern: string): string | null {
  if (!CRON_MACRO.test(pattern) && pattern.split(/\s+/).length !== 5) {
    return 'must be a cron expression with 5 fields (minute hour day-of-month month day-of-week, UTC) or null';
  }
  try {
    // More often than once an hour exactly when the minute field names several minutes (two runs in one hour);
    // the fields are read from the parsed expression, no occurrence is walked.
    const expression = CronExpressionParser.parse(pattern, { tz: 'UTC' });
    if (expression.fields.minute.values.length > 1) return 'must not run more often than once an hour';
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

/** A source's location as it is given: see `locationProblem`. */
export const sourceLocation = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(2048, 'must be at most 2048 characters')
  .superRefine((value, ctx) => {
    const problem = locationProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A source's schedule as it is given: empty or null for none, else see `scheduleProblem`. */
export const sourceSchedule = z
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
    location: sourceLocation,
    schedule: sourceSchedule,
    enabled: z.boolean(),
  })
  .partial();
