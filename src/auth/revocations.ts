import type { PrismaClient } from '../db/client.ts';

/** Revoked token ids, kept until the token would have expired anyway. */
export interface RevocationStore {
  revoke(jti: string, expiresAt: Date): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
  /** Forgets revocations whose tokens have expired; returns how many. */
  purgeExpired(): Promise<number>;
}

/**
 * Revocations live in PostgreSQL, with or without Redis: a logout must survive a Redis outage, restart or
 * flush, and the check is one primary-key lookup next to the user read every request makes anyway.
 */
export function databaseRevocations(prisma: PrismaClient): RevocationStore {
  return {
    async revoke(jti, expiresAt) {
      await prisma.revokedToken.upsert({ where: { jti }, create: { jti, expiresAt }, update: {} });
    },
    async isRevoked(jti) {
      return (await prisma.revokedToken.findUnique({ where: { jti }, select: { jti: true } })) !== null;
    },
    async purgeExpired() {
      const { count } = await prisma.revokedToken.deleteMany({ where: { expiresAt: { lt: new Date() } } });
      return count;
    },
  };
}
