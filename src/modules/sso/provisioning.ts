import type { Actor, UnitOfWork } from '../../db/unit-of-work.ts';
import { equalsText } from '../../db/search.ts';
import { AuthSource, Role } from '../../generated/prisma/enums.ts';
import type { User } from '../../generated/prisma/client.ts';
import { username as usernameRule } from '../users/service.ts';
import type { SsoSettings } from './settings.ts';

/** Who changes an account because an identity provider said so. */
export const SSO_ACTOR: Actor = { userId: null, username: 'sso' };

/** When several role values map to different roles, the first of this list wins. */
export const ROLE_PRECEDENCE: readonly Role[] = [Role.admin, Role.red_lead, Role.blue_lead, Role.red_tech, Role.blue_tech, Role.viewer];

/** Who the identity provider says signed in. */
export interface SsoIdentity {
  username: string;
  email: string | null;
  roleValues: string[];
}

/** Why an identity signs nobody in: logged and audited, never answered. */
export class ProvisioningRefusal extends Error {}

/** The role `values` map to, or null when none is in the mapping. */
export function mappedRole(values: readonly string[], mapping: Record<string, Role>): Role | null {
  const roles = new Set(values.map((value) => (Object.hasOwn(mapping, value) ? mapping[value] : undefined)));
  return ROLE_PRECEDENCE.find((role) => roles.has(role)) ?? null;
}

export interface Provisioned {
  user: User;
  matchedBy: 'username' | 'email' | 'created';
  previousRole: Role | null;
}

/**
 * Finds the user by username, then by e-mail (both regardless of case), or creates one when auto-provisioning is
 * on. The mapped role, when the identity has one, replaces the user's role, except that the last active admin
 * stays admin. New users get the mapped role or the default one, no password, and `authSource: saml`.
 */
export async function provisionUser(uow: UnitOfWork, settings: SsoSettings, identity: SsoIdentity): Promise<Provisioned> {
  const role = mappedRole(identity.roleValues, settings.roleMapping);
  const existing = await findUser(uow, identity);
  if (!existing)
    return { user: await createUser(uow, settings, identity, role ?? settings.defaultRole), matchedBy: 'created', previousRole: null };
  const { user, matchedBy } = existing;
  if (!user.isActive) throw new ProvisioningRefusal('the user is deactivated');
  const changes: { role?: Role; email?: string } = {};
  if (role && role !== user.role && !(await isLastAdmin(uow, user))) changes.role = role;
  if (!user.email && identity.email) changes.email = identity.email;
  if (!Object.keys(changes).length) return { user, matchedBy, previousRole: null };
  const updated = await uow.tx.user.update({ where: { id: user.id }, data: changes });
  await uow.audit({
    action: 'update_user',
    entityType: 'user',
    entityId: user.id,
    details: { username: user.username, changes, source: 'sso', ...(changes.role ? { previous_role: user.role } : {}) },
  });
  uow.emit('user.changed', { userId: user.id, change: 'updated' });
  return { user: updated, matchedBy, previousRole: changes.role ? user.role : null };
}

async function findUser(uow: UnitOfWork, identity: SsoIdentity): Promise<{ user: User; matchedBy: 'username' | 'email' } | null> {
  const byName = await uow.tx.user.findFirst({ where: { username: equalsText(identity.username) } });
  if (byName) return { user: byName, matchedBy: 'username' };
  if (!identity.email) return null;
  const byEmail = await uow.tx.user.findMany({ where: { email: equalsText(identity.email) }, take: 2 });
  if (byEmail.length > 1) throw new ProvisioningRefusal('the e-mail address belongs to several users');
  return byEmail.length ? { user: byEmail[0], matchedBy: 'email' } : null;
}

async function createUser(uow: UnitOfWork, settings: SsoSettings, identity: SsoIdentity, role: Role): Promise<User> {
  if (!settings.autoProvision) throw new ProvisioningRefusal('unknown user and auto-provisioning is off');
  if (!usernameRule.safeParse(identity.username).success) {
    throw new ProvisioningRefusal('the username from the identity provider is not a valid username (map a username attribute)');
  }
  const user = await uow.tx.user.create({
    data: { username: identity.username, email: identity.email, role, authSource: AuthSource.saml, passwordHash: null },
  });
  await uow.audit({
    action: 'create_user',
    entityType: 'user',
    entityId: user.id,
    details: { username: user.username, role, source: 'sso' },
  });
  uow.emit('user.changed', { userId: user.id, change: 'created' });
  return user;
}

/** An active admin with no other active admin: the identity provider may not demote them (admins are locked). */
async function isLastAdmin(uow: UnitOfWork, user: User): Promise<boolean> {
  if (user.role !== Role.admin) return false;
  const admins = await uow.tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM users WHERE role = 'admin' AND is_active FOR UPDATE`;
  return !admins.some((admin) => admin.id !== user.id);
}
