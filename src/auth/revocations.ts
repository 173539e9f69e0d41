import type { PrismaClient } from '../db/client.ts';
import type { Redis } from '../redis.ts';

/** Revoked token ids, kept until the token would have expired anyway. */
export interface RevocationStore {
  revoke(jti: string, expiresAt: Date): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
  /** Forgets revocations whose tokens have expired; returns how many. */
  purgeExpired(): Promise<number>;
}

export function redisRevocations(redis: Redis, prefix: string): RevocationStore {
  const key = (jti: string) => `${prefix}:revoked:${jti}`;
  return {
    async revoke(jti, expiresAt) {
      const ttl = Math.max(1, expiresAt.getTime() - Date.now());
      await redis.set(key(jti), '1', 'PX', ttl);
    },
    async isRevoked(jti) {
      return (await redis.exists(key(jti))) === 1;
    },
    async purgeExpired() {
      return 0; // Redis expires the keys itself.
    },
  };
}

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
