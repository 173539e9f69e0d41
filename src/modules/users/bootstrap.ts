import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../auth/passwords.ts';
import type { Services } from '../../services.ts';

export interface BootstrapResult {
  username: string;
  /** Present only when the password was generated and must be shown once. */
  generatedPassword?: string;
}

/**
 * On an empty database, creates the first administrator: with ADMIN_PASSWORD when given, otherwise with a
 * random password that is returned once and must be changed at first sign-in.
 */
export async function bootstrapAdmin(services: Services): Promise<BootstrapResult | null> {
  if ((await services.prisma.user.count()) > 0) return null;
  const configured = services.config.ADMIN_PASSWORD;
  const password = configured ?? randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  const created = await services.prisma
    .$transaction(async (tx) => {
      if ((await tx.user.count()) > 0) return false;
      const user = await tx.user.create({
        data: {
          username: 'admin',
          role: 'admin',
          passwordHash,
          displayName: 'Administrator',
          mustChangePassword: !configured,
          isBootstrap: true,
        },
      });
      await tx.auditLog.create({
        data: {
          userId: null,
          username: 'system',
          action: 'create_user',
          entityType: 'user',
          entityId: user.id,
          details: { username: 'admin', role: 'admin', bootstrap: true },
        },
      });
      return true;
    })
    .catch(() => false);
  if (!created) return null;
  return { username: 'admin', generatedPassword: configured ? undefined : password };
}
