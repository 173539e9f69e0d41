import { containsText, equalsText } from '../../db/search.ts';
import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import { assertPasswordAcceptable, hashPassword } from '../../auth/passwords.ts';
import type { Prisma } from '../../db/client.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '../../errors.ts';
import { AuthSource, Role } from '../../generated/prisma/enums.ts';
import type { User } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed } from '../../validation.ts';
import { camelToSnake } from '../../naming.ts';
import { ASSIGNABLE_ROLES } from './permissions.ts';
import { effectivePreferences, preferencesSchema, type Preferences } from '../notifications/preferences.ts';
import { pageOf } from '../../db/page-totals.ts';

type Query = { select?: Prisma.UserSelect };

export const USER_PAGE = { defaultLimit: 50, maxLimit: 100 } as const;
const pageSchema = page(USER_PAGE.defaultLimit, USER_PAGE.maxLimit);

/** An admin may not take away their own admin access (deactivate or demote themselves). */
export class SelfLockoutError extends DomainError {
  override readonly status = 400;
  override readonly code = 'SELF_LOCKOUT';
}

/** The change would leave no active administrator. */
export class LastAdminError extends DomainError {
  override readonly status = 409;
  override readonly code = 'LAST_ADMIN';
  constructor() {
    super('The last active admin cannot be deactivated or demoted');
  }
}

/** The username rule, for accounts made here and by single sign-on alike. */
export const username = z
  .string()
  .trim()
  .min(3, 'must be at least 3 characters')
  .max(150, 'must be at most 150 characters')
  .regex(/^[A-Za-z0-9._@-]+$/, 'may contain only letters, digits and . _ @ -');
const email = z.email('must be a valid e-mail address').max(254, 'must be at most 254 characters');

const createSchema = z.object({
  username,
  email: email.nullish(),
  password: z.string(),
  role: z.enum(Role),
  displayName: trimmed(200).nullish(),
  trackerAccountId: trimmed(200).nullish(),
});

const updateSchema = z
  .object({
    email: email.nullable(),
    role: z.enum(Role),
    isActive: z.boolean(),
    password: z.string(),
    displayName: trimmed(200).nullable(),
    trackerAccountId: trimmed(200).nullable(),
  })
  .partial();
type UserChanges = Omit<z.infer<typeof updateSchema>, 'password'>;

export interface UserFilter {
  role?: Role | null;
  isActive?: boolean | null;
  search?: string | null;
}

export async function listUsers(services: Services, filter: UserFilter, paging: unknown) {
  const { offset, limit } = parseInput(pageSchema, paging);
  const where: Prisma.UserWhereInput = {};
  if (filter.role) where.role = filter.role;
  if (filter.isActive != null) where.isActive = filter.isActive;
  if (filter.search) {
    const contains = containsText(filter.search);
    where.OR = [{ username: contains }, { email: contains }, { displayName: contains }];
  }
  return pageOf({ offset, limit }, [
    services.prisma.user.findMany({ where, orderBy: { username: 'asc' }, skip: offset, take: limit }),
    services.prisma.user.count({ where }),
  ]);
}

/** Most users the assignee pickers list: more than any purple team has, and a hard cap on the answer. */
export const ASSIGNABLE_USERS_MAX = 500;

/** Active users whose role works tests, by username, at most ASSIGNABLE_USERS_MAX. */
export function listAssignableUsers(services: Services, query: Query = {}) {
  return services.prisma.user.findMany({
    ...query,
    where: { isActive: true, role: { in: [...ASSIGNABLE_ROLES] } },
    orderBy: [{ username: 'asc' }, { id: 'asc' }],
    take: ASSIGNABLE_USERS_MAX,
  });
}

export async function getUser(services: Services, id: string, query: Query = {}) {
  const user = await services.prisma.user.findUnique({ ...query, where: { id } });
  if (!user) throw new NotFoundError('User', id);
  return user;
}

/** Creates an account with a temporary password: the user must change it at first sign-in. */
export async function createUser(services: Services, actor: Principal, input: unknown, query: Query = {}) {
  const { password, ...data } = parseInput(createSchema, input);
  assertPasswordAcceptable(password, data.username);
  const passwordHash = await hashPassword(password);
  return inTransaction(services, actor, async (uow) => {
    // Usernames differing only in case would be indistinguishable to people.
    const taken = await uow.tx.user.findFirst({ where: { username: equalsText(data.username) }, select: { id: true } });
    if (taken) throw new ConflictError(`Username ${data.username} is already taken`);
    const user = await uow.tx.user.create({
      ...query,
      data: { ...data, passwordHash, mustChangePassword: true, passwordChangedAt: new Date() },
    });
    await uow.audit({
      action: 'create_user',
      entityType: 'user',
      entityId: user.id,
      details: { username: data.username, role: data.role },
    });
    uow.emit('user.changed', { userId: user.id, change: 'created' });
    return user;
  });
}

/** Applies an admin's changes; a new password is a reset: old sessions end and the user must change it. */
export async function updateUser(services: Services, actor: Principal, id: string, input: unknown, query: Query = {}) {
  const { password, ...changes } = parseInput(updateSchema, input);
  let passwordHash: string | undefined;
  if (password !== undefined) {
    const target = await getUser(services, id, { select: { username: true, authSource: true } });
    if (target.authSource !== AuthSource.local) {
      throw new ValidationError('password', 'cannot be set for a user who signs in through single sign-on');
    }
    assertPasswordAcceptable(password, target.username);
    passwordHash = await hashPassword(password);
  }
  return inTransaction(services, actor, async (uow) => {
    const before = await existingUser(uow, id);
    await assertAdminsRemain(uow, actor, before, changes);
    const deactivated = before.isActive && changes.isActive === false;
    const reset = passwordHash ? { passwordHash, mustChangePassword: true, passwordChangedAt: new Date() } : {};
    // A password reset and a deactivation both end every session, so a later reactivation revives no old token.
    const endSessions = passwordHash || deactivated ? { sessionVersion: { increment: 1 } } : {};
    const user = await uow.tx.user.update({ ...query, where: { id }, data: { ...changes, ...reset, ...endSessions } });
    const details = { username: before.username, changes, ...(passwordHash ? { password_reset: true } : {}) };
    await uow.audit({ action: 'update_user', entityType: 'user', entityId: id, details });
    uow.emit('user.changed', { userId: id, change: deactivated ? 'deactivated' : 'updated' });
    return user;
  });
}

/** Soft delete: the account is kept (history, audit) but can no longer sign in or use its keys. */
export async function deactivateUser(services: Services, actor: Principal, id: string, query: Query = {}) {
  return inTransaction(services, actor, async (uow) => {
    const before = await existingUser(uow, id);
    await assertAdminsRemain(uow, actor, before, { isActive: false });
    // Only while active: of two concurrent deactivations, one ends the sessions and is audited.
    const { count } = await uow.tx.user.updateMany({
      where: { id, isActive: true },
      data: { isActive: false, sessionVersion: { increment: 1 } },
    });
    const user = await uow.tx.user.findUniqueOrThrow({ ...query, where: { id } });
    if (!count) return user;
    await uow.audit({ action: 'deactivate_user', entityType: 'user', entityId: id, details: { username: before.username } });
    uow.emit('user.changed', { userId: id, change: 'deactivated' });
    return user;
  });
}

async function existingUser(uow: UnitOfWork, id: string): Promise<User> {
  const user = await uow.tx.user.findUnique({ where: { id } });
  if (!user) throw new NotFoundError('User', id);
  return user;
}

/**
 * Refuses changes that take admin access away from the caller or from the last active admin. The active
 * admins are locked, so two admins deactivating each other at the same moment cannot both succeed.
 */
async function assertAdminsRemain(uow: UnitOfWork, actor: Principal, target: User, changes: UserChanges): Promise<void> {
  const losesAdmin =
    target.role === Role.admin && target.isActive && ((changes.role && changes.role !== Role.admin) || changes.isActive === false);
  if (!losesAdmin) return;
  if (target.id === actor.userId) throw new SelfLockoutError('You cannot deactivate or demote your own account');
  const admins = await uow.tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM users WHERE role = 'admin' AND is_active FOR UPDATE`;
  if (!admins.some((admin) => admin.id !== target.id)) throw new LastAdminError();
}

/** Preference keys in the spec's snake_case, whichever case the caller used (REST bodies arrive camelised); only the role's toggles. */
function preferenceChanges(input: unknown, role: Role): Preferences {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new ValidationError(null, 'Preferences must be a JSON object');
  const snake = Object.fromEntries(Object.entries(input).map(([key, value]) => [camelToSnake(key), value]));
  const schema = preferencesSchema(role);
  const unknown = Object.keys(snake).find((key) => !(key in schema.shape));
  if (unknown) throw new ValidationError(unknown, 'is not a known preference');
  return parseInput(schema, snake) as Preferences;
}

/** Merges the given preferences into the caller's stored ones and answers the effective preferences. */
export async function updateMyPreferences(services: Services, principal: Principal, input: unknown) {
  const changes = preferenceChanges(input, principal.role);
  if (!Object.keys(changes).length) return effectivePreferences((await getUser(services, principal.userId)).preferences, principal.role);
  return inTransaction(services, principal, async (uow) => {
    // One statement merges into the stored JSON, so concurrent updates of different keys all survive.
    const [row] = await uow.tx.$queryRaw<{ preferences: unknown }[]>`
      UPDATE users SET preferences = preferences || ${JSON.stringify(changes)}::jsonb, updated_at = now()
      WHERE id = ${principal.userId}::uuid RETURNING preferences`;
    await uow.audit({ action: 'update_preferences', entityType: 'user', entityId: principal.userId, details: { changes } });
    uow.emit('user.changed', { userId: principal.userId, change: 'updated' });
    return effectivePreferences(row.preferences, principal.role);
  });
}
