import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import { assertPasswordAcceptable, hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { event } from '../../events/bus.ts';
import { ConflictError, InvalidCredentialsError, ValidationError } from '../../errors.ts';
import { AuthSource } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';

export interface Session {
  accessToken: string;
  tokenType: 'bearer';
  expiresAt: Date;
}

const credentialsSchema = z.object({
  username: z.string().trim().min(1, 'is required').max(150),
  password: z.string().min(1, 'is required').max(1024),
});

/**
 * Checks a username and password. Unknown users cost the same argon2 work as known ones, and every failure
 * gives the same answer; the attempt is counted before the password is checked, so one client gets at most
 * `LOGIN_MAX_FAILURES` checks for one username per lockout period, however many requests it sends at once.
 */
export async function login(services: Services, input: unknown, clientIp: string): Promise<Session> {
  const { username, password } = parseInput(credentialsSchema, input);
  await services.loginThrottle.beginLogin(username, clientIp);
  const user = await services.prisma.user.findUnique({ where: { username } });
  // Users of single sign-on have no password here: they get the same answer, after the same work, as a wrong one.
  const local = user?.authSource === AuthSource.local;
  const passwordMatches = await verifyPassword(local ? (user?.passwordHash ?? null) : null, password);
  if (!user || !local || !passwordMatches || !user.isActive) {
    await services.prisma.auditLog.create({
      data: {
        userId: user?.id ?? null,
        username,
        action: 'login_failed',
        entityType: 'user',
        entityId: user?.id ?? null,
        details: { client_ip: clientIp },
      },
    });
    throw new InvalidCredentialsError();
  }
  await services.loginThrottle.loginSucceeded(username, clientIp);
  const session = await issueSession(services, user);
  await services.prisma.auditLog.create({
    data: {
      userId: user.id,
      username: user.username,
      action: 'login',
      entityType: 'user',
      entityId: user.id,
      details: { client_ip: clientIp },
    },
  });
  return session;
}

/** A session token for `user`, as every sign-in issues it (password here, single sign-on in the sso module). */
export async function issueSession(
  services: Services,
  user: { id: string; role: Principal['role']; sessionVersion: number },
): Promise<Session> {
  const { token, claims } = await services.tokens.issue(user.id, user.role, user.sessionVersion);
  return { accessToken: token, tokenType: 'bearer', expiresAt: new Date(claims.exp * 1000) };
}

/** Revokes the session token until it would have expired. API keys are revoked through /api-keys instead. */
export async function logout(services: Services, principal: Principal): Promise<void> {
  if (principal.via !== 'token' || !principal.jti || !principal.expiresAt) {
    throw new ValidationError(null, 'Only session tokens can log out; revoke an API key through /api-keys');
  }
  await services.revocations.revoke(principal.jti, principal.expiresAt);
  await services.prisma.auditLog.create({
    data: {
      userId: principal.userId,
      username: principal.username,
      action: 'logout',
      entityType: 'user',
      entityId: principal.userId,
      details: {},
    },
  });
  await services.bus.publish([event('session.ended', { userId: principal.userId, jti: principal.jti }, principal.userId)]);
}

const changePasswordSchema = z.object({
  currentPassword: z.string().min(1, 'is required').max(1024),
  newPassword: z.string().max(1024),
});

/**
 * Changes the caller's password and lifts the must-change-password gate. Wrong current passwords are
 * throttled per user like failed logins. Raising the session version ends
 * every session issued before the change, this one included; the caller gets a fresh one.
 */
export async function changePassword(services: Services, principal: Principal, input: unknown): Promise<Session> {
  const { currentPassword, newPassword } = parseInput(changePasswordSchema, input);
  const user = await services.prisma.user.findUniqueOrThrow({ where: { id: principal.userId } });
  if (user.authSource !== AuthSource.local) {
    throw new ValidationError(null, 'Users who sign in through single sign-on have no password here; change it at the identity provider');
  }
  // Counted before checking: a stolen session or key must not be able to guess the current password.
  await services.loginThrottle.beginPasswordCheck(user.id);
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    throw new ValidationError('currentPassword', 'is incorrect');
  }
  await services.loginThrottle.passwordCheckSucceeded(user.id);
  assertPasswordAcceptable(newPassword, user.username, 'newPassword');
  if (newPassword === currentPassword) throw new ValidationError('newPassword', 'must differ from the current password');
  const passwordHash = await hashPassword(newPassword);
  const updated = await inTransaction(services, principal, async (uow) => {
    // Only while the password checked above is still the stored one: of two concurrent changes, one wins.
    const { count } = await uow.tx.user.updateMany({
      where: { id: user.id, passwordHash: user.passwordHash },
      data: { passwordHash, mustChangePassword: false, passwordChangedAt: new Date(), sessionVersion: { increment: 1 } },
    });
    if (!count) throw new ConflictError('The password was changed meanwhile; sign in with the new one');
    const changed = await uow.tx.user.findUniqueOrThrow({ where: { id: user.id } });
    await uow.audit({ action: 'change_password', entityType: 'user', entityId: user.id });
    uow.emit('user.changed', { userId: user.id, change: 'password_changed' });
    return changed;
  });
  return issueSession(services, updated);
}
