import { ERROR_CODES, type ErrorCode, type ErrorScope } from '../src/errors.ts';
import { isCustom, type Route } from './types.ts';

/** The scopes of the error catalogue that apply to a row (see `ErrorScope`). */
function scopesOf(route: Route, { parameters }: { parameters: boolean }): Set<ErrorScope> {
  const write = route.method !== 'GET';
  const scopes = new Set<ErrorScope>(['request']);
  if (route.roles !== 'public') scopes.add('signed-in');
  if (write) scopes.add('write').add('domain');
  if (write && !route.crossSiteAllowed) scopes.add('cross-site');
  if (write || parameters) scopes.add('record');
  if (!isCustom(route)) scopes.add('graphql-row');
  return scopes;
}

/** The codes a row can answer, from the one error catalogue: by its kind, plus those the row lists. */
export function errorCodesOf(route: Route, shape: { parameters: boolean }): ErrorCode[] {
  const scopes = scopesOf(route, shape);
  const listed = new Set(isCustom(route) ? (route.errors ?? []) : []);
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => scopes.has(ERROR_CODES[code].applies) || listed.has(code));
}

/** One response per 4xx status a row can answer (429 aside: a shared response), each with its possible codes. */
export function errorResponses(route: Route, shape: { parameters: boolean }): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route, shape)) {
    const { status } = ERROR_CODES[code];
    if (status < 400 || status >= 500 || status === 429) continue;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      String(status),
      {
        description: codes.map((code) => `${code}: ${ERROR_CODES[code].description}`).join('; '),
        content: {
          'application/json': {
            schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { code: { enum: codes } } }] },
          },
        },
      },
    ]),
  );
}

/** The catalogue in words, for the Error schema's `code`. */
export const errorCatalogueText = () =>
  Object.entries(ERROR_CODES)
    .map(([code, { status, description }]) => `${code} (${status}): ${description}`)
    .join('\n');
