import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
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

export class TokenService {
  private constructor(
    private readonly key: KeyObject,
    readonly ttlMs: number,
  ) {}

  /**
   * Signs with the service secret (src/crypto/service-secret.ts). The key is one `KeyObject`, which jose turns into
   * a WebCrypto key once and keeps: given the secret's bytes, it imported a key for every token it signed or checked.
   */
  static create(secret: string, ttlMs: number): TokenService {
    return new TokenService(createSecretKey(secret, 'utf8'), ttlMs);
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
      .sign(this.key);
    return { token, claims };
  }

  /** Verifies signature (HS256 only: `alg: none` and others are refused), expiry and the claims' shape. */
  async verify(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: [ALGORITHM], requiredClaims: ['sub', 'jti', 'exp', 'iat', 'sv'] });
      const claims = claimsSchema.safeParse(payload);
      if (!claims.success) throw new UnauthenticatedError('Invalid token');
      return claims.data;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new UnauthenticatedError('Token has expired');
      throw new UnauthenticatedError('Invalid token');
    }
  }
}
