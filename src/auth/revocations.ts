import type { PrismaClient } from '../db/client.ts';

/** Revoked token ids, kept until the token would have expired anyway. */
export interface RevocationStore {
  revoke(jti: string, expiresAt: Date): Promise<void>;
  /** Forgets revocations whose tokens have expired; returns how many. */
  purgeExpired(): Promise<number>;
}

/**
 * Revocations live in PostgreSQL, with or without Redis: a logout must survive a Redis outage, restart or
 * flush. The check is part of the statement that reads the user (src/auth/authenticate.ts), at most SESSION_CACHE
 * before a request; a logout announces itself, and every process forgets that session at once (src/auth/session-cache.ts).
 */
export function databaseRevocations(prisma: PrismaClient): RevocationStore {
  return {
    async revoke(jti, expiresAt) {
      await prisma.revokedToken.upsert({ where: { jti }, create: { jti, expiresAt }, update: {} });
    },
    async purgeExpired() {
      const { count } = await prisma.revokedToken.deleteMany({ where: { expiresAt: { lt: new Date() } } });
      return count;
    },
  };
}
