import type { Actor, UnitOfWork } from '../../db/unit-of-work.ts';
import { equalsText } from '../../db/search.ts';
import { AuthSource, Role } from '../../generated/prisma/enums.ts';
import type { User } from '../../generated/prisma/client.ts';
import { username as usernameRule } from '../users/service.ts';
import { SsoAccountExistsError } from './errors.ts';
import { storeLink } from './links.ts';
import type { SsoSettings } from './settings.ts';

/** Who changes an account because an identity provider said so. */
export const SSO_ACTOR: Actor = { userId: null, username: 'sso' };

/** When several role values map to different roles, the first of this list wins. */
export const ROLE_PRECEDENCE: readonly Role[] = [Role.admin, Role.red_lead, Role.blue_lead, Role.red_tech, Role.blue_tech, Role.viewer];

/** Who the identity provider says signed in: its stable identifier (issuer + NameID) and what it says of them. */
export interface SsoIdentity {
  issuer: string;
  nameId: string;
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
  /**
   * `identity`: the linked issuer + NameID; `legacy`: an IdP-owned account from before identities were stored;
   * `linked`: the account whose owner started this sign-in to link it.
   */
  matchedBy: 'identity' | 'legacy' | 'created' | 'linked';
  previousRole: Role | null;
}

/**
 * Finds the user linked to the identity (issuer + NameID) and nothing else, or creates an IdP-owned one when
 * auto-provisioning is on; a new identity whose username or e-mail belongs to an existing account is refused
 * (`SsoAccountExistsError`), never linked to it. The mapped role and the e-mail apply only to accounts the
 * identity provider owns (`authSource: saml`), and the last active admin stays admin. A local account linked by
 * an admin keeps its role and fields.
 */
export async function provisionUser(uow: UnitOfWork, settings: SsoSettings, identity: SsoIdentity): Promise<Provisioned> {
  const role = mappedRole(identity.roleValues, settings.roleMapping);
  const existing = await findUser(uow, identity);
  if (!existing)
    return { user: await createUser(uow, settings, identity, role ?? settings.defaultRole), matchedBy: 'created', previousRole: null };
  const { user, matchedBy } = existing;
  if (!user.isActive) throw new ProvisioningRefusal('the user is deactivated');
  const changes: { role?: Role; email?: string; ssoIssuer?: string; ssoNameId?: string } = {};
  if (matchedBy === 'legacy') Object.assign(changes, { ssoIssuer: identity.issuer, ssoNameId: identity.nameId });
  if (user.authSource === AuthSource.saml) {
    if (role && role !== user.role && !(await isLastAdmin(uow, user))) changes.role = role;
    if (!user.email && identity.email) changes.email = identity.email;
  }
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

/**
 * Links the account whose owner, signed in with their password, started this sign-in (`startLink`) to the
 * identity, and signs them in. The account keeps its role and fields.
 */
export async function linkAccount(uow: UnitOfWork, identity: SsoIdentity, userId: string): Promise<Provisioned> {
  const user = await uow.tx.user.findUnique({ where: { id: userId } });
  if (!user?.isActive || user.authSource !== AuthSource.local)
    throw new ProvisioningRefusal('the account to link is deactivated or not local');
  return { user: await storeLink(uow, user, identity.issuer, identity.nameId, 'user'), matchedBy: 'linked', previousRole: null };
}

/**
 * The user linked to the identity; else an IdP-owned account created before identities were stored (no identity
 * yet, same username), which the identity then claims.
 */
async function findUser(uow: UnitOfWork, identity: SsoIdentity): Promise<{ user: User; matchedBy: 'identity' | 'legacy' } | null> {
  const linked = await uow.tx.user.findUnique({
    where: { ssoIssuer_ssoNameId: { ssoIssuer: identity.issuer, ssoNameId: identity.nameId } },
  });
  if (linked) return { user: linked, matchedBy: 'identity' };
  const legacy = await uow.tx.user.findFirst({
    where: { username: equalsText(identity.username), authSource: AuthSource.saml, ssoIssuer: null, isBootstrap: false },
  });
  return legacy ? { user: legacy, matchedBy: 'legacy' } : null;
}

async function createUser(uow: UnitOfWork, settings: SsoSettings, identity: SsoIdentity, role: Role): Promise<User> {
  if (!settings.autoProvision) throw new ProvisioningRefusal('unknown user and auto-provisioning is off');
  if (!usernameRule.safeParse(identity.username).success) {
    throw new ProvisioningRefusal('the username from the identity provider is not a valid username (map a username attribute)');
  }
  const taken = await uow.tx.user.findFirst({
    where: { OR: [{ username: equalsText(identity.username) }, ...(identity.email ? [{ email: equalsText(identity.email) }] : [])] },
    select: { id: true },
  });
  if (taken) throw new SsoAccountExistsError(taken.id);
  const user = await uow.tx.user.create({
    data: {
      username: identity.username,
      email: identity.email,
      role,
      authSource: AuthSource.saml,
      passwordHash: null,
      ssoIssuer: identity.issuer,
      ssoNameId: identity.nameId,
    },
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
