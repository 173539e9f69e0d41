import { afterEach, describe, expect, it, vi } from 'vitest';
import { UnauthenticatedError } from '../errors.ts';
import { TokenService, VERIFIED_TOKENS } from './tokens.ts';

const SECRET = 'a service secret of at least thirty-two characters';
const USER = '0b7f5e1c-8a53-4a4e-9d6f-2f3c1a9b7e10';

afterEach(() => vi.useRealTimers());

/** The tokens a service remembers as checked. */
const rememberedBy = (service: TokenService) => (service as unknown as { verified: Map<string, unknown> }).verified;

describe('token checks', () => {
  it('checks a token once and its expiry on every use, with the rule of its first check', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokens = TokenService.create(SECRET, 60_000);
    const { token, claims } = await tokens.issue(USER, 'viewer', 3);
    const first = await tokens.verify(token);
    expect(first).toEqual(claims);
    expect(await tokens.verify(token)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // One second before `exp` it still works; from the second of `exp` on it is expired, as on its first check.
    vi.setSystemTime((claims.exp - 1) * 1000);
    expect(await tokens.verify(token)).toBe(first);
    vi.setSystemTime(claims.exp * 1000);
    await expect(tokens.verify(token)).rejects.toThrow(new UnauthenticatedError('Token has expired'));
    await expect(tokens.verify(token)).rejects.toThrow(new UnauthenticatedError('Token has expired'));
  });

  // Signs and checks VERIFIED_TOKENS + 1 tokens: about a second here, more on a busy machine.
  it('remembers only tokens that pass, and at most VERIFIED_TOKENS of them', { timeout: 30_000 }, async () => {
    const tokens = TokenService.create(SECRET, 60_000);
    const other = TokenService.create(`${SECRET}, another one`, 60_000);
    const remembered = () => rememberedBy(tokens).size;
    const { token: foreign } = await other.issue(USER, 'admin', 0);
    await expect(tokens.verify(foreign)).rejects.toThrow(new UnauthenticatedError('Invalid token'));
    const { token } = await tokens.issue(USER, 'viewer', 0);
    const [header, payload, signature] = token.split('.');
    const raised = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), role: 'admin' })).toString('base64url')}.${signature}`;
    await expect(tokens.verify(raised)).rejects.toThrow(new UnauthenticatedError('Invalid token'));
    expect(remembered()).toBe(0);
    // The first token checked makes room for the one after the bound.
    const issued = await Promise.all(Array.from({ length: VERIFIED_TOKENS + 1 }, () => tokens.issue(USER, 'viewer', 0)));
    for (const { token: each } of issued) await tokens.verify(each);
    expect(remembered()).toBe(VERIFIED_TOKENS);
    expect(rememberedBy(tokens).has(issued[0].token)).toBe(false);
    expect(rememberedBy(tokens).has(issued.at(-1)!.token)).toBe(true);
    // A token that fell out is checked in full again.
    expect(await tokens.verify(issued[0].token)).toEqual(issued[0].claims);
  });
});
