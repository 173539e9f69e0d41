import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../auth/passwords.ts';
import type { PrismaClient } from '../../db/client.ts';
import { equalsText } from '../../db/search.ts';

export interface RecoveredAccount {
  userId: string;
  username: string;
  /** Shown once to the operator; the user must change it at the next sign-in. */
  temporaryPassword: string;
  /** The account was inactive and stays so: an admin reactivates it after signing in with another account. */
  inactive: boolean;
}

export class RecoveryRefused extends Error {}

/**
 * The operator's way back into a locked-out installation (`npm run admin:reset-password -- <username>`): run on the
 * server with access to the database, it gives a local account a random temporary password, ends its sessions and
 * audits the reset. Nobody who can only reach the API can call it.
 */
export async function issueTemporaryPassword(prisma: PrismaClient, username: string): Promise<RecoveredAccount> {
  const temporaryPassword = randomBytes(15).toString('base64url');
  const passwordHash = await hashPassword(temporaryPassword);
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.findFirst({ where: { username: equalsText(username) } });
    if (!user) throw new RecoveryRefused(`No user named ${username}`);
    if (user.authSource !== 'local') {
      throw new RecoveryRefused(`${user.username} signs in through single sign-on: reset the password at the identity provider`);
    }
    await tx.user.update({
      where: { id: user.id },
      data: { passwordHash, mustChangePassword: true, passwordChangedAt: new Date(), sessionVersion: { increment: 1 } },
    });
    await tx.auditLog.create({
      data: {
        userId: null,
        username: 'system',
        action: 'reset_password',
        entityType: 'user',
        entityId: user.id,
        details: { username: user.username, via: 'command line' },
      },
    });
    return { userId: user.id, username: user.username, temporaryPassword, inactive: !user.isActive };
  });
}
