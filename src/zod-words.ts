import type { z } from 'zod';

const KINDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  date: 'a date',
  bigint: 'an integer',
};

const FORMATS: Record<string, string> = {
  guid: 'a UUID',
  uuid: 'a UUID',
  email: 'an e-mail address',
  url: 'a URL',
  datetime: 'an ISO 8601 date-time',
  date: 'a date (YYYY-MM-DD)',
  time: 'a time (HH:MM)',
};

const sized = (origin: string, bound: string, amount: number | bigint) => {
  if (origin === 'string') return `must be ${bound} ${amount} character${amount === 1 ? '' : 's'}`;
  if (origin === 'array' || origin === 'set') return `must hold ${bound} ${amount} item${amount === 1 ? '' : 's'}`;
  return `must be ${bound} ${amount}`;
};

/**
 * zod's problems in plain words (`is required`, `must be an integer`, `must be at most 200`), for the checks that
 * state no message of their own: a client reads the field and the rule, never the validator's vocabulary.
 */
export function plainWords(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      if (issue.input === null) return 'must not be null';
      return `must be ${KINDS[issue.expected] ?? `a ${issue.expected}`}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      return sized(issue.origin, issue.inclusive === false ? 'more than' : 'at least', issue.minimum);
    case 'too_big':
      return sized(issue.origin, issue.inclusive === false ? 'less than' : 'at most', issue.maximum);
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return `must be ${FORMATS[issue.format] ?? `in the ${issue.format} format`}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `has unknown field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}`;
    case 'invalid_key':
    case 'invalid_element':
    case 'invalid_union':
    case 'custom':
      return 'is not valid';
    default:
      return undefined;
  }
}
