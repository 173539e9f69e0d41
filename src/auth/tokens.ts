import { randomUUID, webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { setNewest } from '../bounded-map.ts';
import { UnauthenticatedError } from '../errors.ts';
import { Role } from './roles.ts';

export interface TokenClaims {
  sub: string;
  role: Role;
  /** The user's session version when issued: a password change raises it and ends older sessions. */
  sv: number;
  jti: string;
  iat: number;
  exp: number;
}

export interface IssuedToken {
  token: string;
  claims: TokenClaims;
}

const ALGORITHM = 'HS256';

/**
 * The claims this service issues. A token signed with the right key but carrying anything else (a secret
 * leaked to another issuer, a hand-made token) is refused as invalid rather than reaching the database.
 */
const claimsSchema = z.object({
  sub: z.guid(),
  role: z.enum(Role),
  sv: z.number().int().min(0),
  jti: z.guid(),
  iat: z.number().int(),
  exp: z.number().int(),
});

/**
 * Tokens whose signature and claims were checked, remembered so that a client's next requests skip the HMAC (about a
 * twentieth of a small request's CPU, run through WebCrypto's job queue). Only tokens this service signed get in, and
 * the oldest entry makes room for a new one, so holding them is bounded: 10,000 tokens of about 300 bytes.
 */
export const VERIFIED_TOKENS = 10_000;

export class TokenService {
  /** Checked tokens and their claims, oldest first (see VERIFIED_TOKENS). Revocation is not checked here (src/auth/session-cache.ts). */
  private readonly verified = new Map<string, Readonly<TokenClaims>>();

  private constructor(
    private readonly key: Promise<webcrypto.CryptoKey>,
    readonly ttlMs: number,
  ) {}

  /**
   * Signs with the service secret (src/crypto/service-secret.ts), imported once as the WebCrypto key jose signs and
   * checks with. Given the secret's bytes, or a `KeyObject` (which it exports to bytes), jose imports a key for every
   * token it signs or checks.
   */
  static create(secret: string, ttlMs: number): TokenService {
    const key = webcrypto.subtle.importKey('raw', Buffer.from(secret, 'utf8'), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    key.catch(() => undefined); // a key that cannot be imported fails the first token, not the process
    return new TokenService(key, ttlMs);
  }

  async issue(userId: string, role: Role, sessionVersion: number): Promise<IssuedToken> {
    const iat = Math.floor(Date.now() / 1000);
    const claims: TokenClaims = { sub: userId, role, sv: sessionVersion, jti: randomUUID(), iat, exp: iat + Math.ceil(this.ttlMs / 1000) };
    const token = await new SignJWT({ role: claims.role, sv: claims.sv })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.sub)
      .setJti(claims.jti)
      .setIssuedAt(claims.iat)
      .setExpirationTime(claims.exp)
      .sign(await this.key);
    return { token, claims };
  }

  /**
   * Verifies signature (HS256 only: `alg: none` and others are refused), expiry and the claims' shape. A token checked
   * before has only its expiry checked again, with jose's rule (expired from the second of `exp` on).
   */
  async verify(token: string): Promise<Readonly<TokenClaims>> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp > Math.floor(Date.now() / 1000)) return known;
      this.verified.delete(token);
      throw new UnauthenticatedError('Token has expired');
    }
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: [ALGORITHM],
        requiredClaims: ['sub', 'jti', 'exp', 'iat', 'sv'],
      });
      const claims = claimsSchema.safeParse(payload);
      if (!claims.success) throw new UnauthenticatedError('Invalid token');
      const checked = Object.freeze(claims.data);
      setNewest(this.verified, token, checked, VERIFIED_TOKENS);
      return checked;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new UnauthenticatedError('Token has expired');
      throw new UnauthenticatedError('Invalid token');
    }
  }
}
