import { z } from 'zod';
import { inTransaction, type Actor, type UnitOfWork } from '../../db/unit-of-work.ts';
import type { User } from '../../generated/prisma/client.ts';
import { NotFoundError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';
import { SsoDisabledError, SsoLinkRefusedError } from './errors.ts';
import { loadSettings } from './settings.ts';

/** The identity provider identity that signs in as a user. */
export interface SsoLink {
  userId: string;
  issuer: string | null;
  nameId: string | null;
}

const linkInput = z.object({ nameId: z.string().trim().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters') }).strict();

/**
 * An admin links an existing account to the configured identity provider's NameID: from then on that identity
 * signs in as this account (its role and fields stay as they are unless the account is IdP-owned). The first
 * administrator is never linked, and an identity links to one account only. Audited as `link_sso_identity`.
 */
export async function linkSsoIdentity(services: Services, actor: Actor, userId: string, input: unknown): Promise<SsoLink> {
  const { nameId } = parseInput(linkInput, input);
  const { idpEntityId: issuer } = await loadSettings(services.prisma);
  if (!issuer) throw new SsoDisabledError();
  return inTransaction(services, actor, async (uow) => {
    const user = await uow.tx.user.findUnique({ where: { id: userId } });
    if (!user) throw new NotFoundError('User', userId);
    await storeLink(uow, user, issuer, nameId, 'admin');
    return { userId: user.id, issuer, nameId };
  });
}

/**
 * Links `user` to issuer + NameID, refusing the first administrator and an identity linked to someone else;
 * audited as `link_sso_identity` with who asked (`source`) and the link it replaces.
 */
export async function storeLink(uow: UnitOfWork, user: User, issuer: string, nameId: string, source: 'admin' | 'user'): Promise<User> {
  if (user.isBootstrap) throw new SsoLinkRefusedError('The first administrator is never linked to an identity provider');
  const holder = await uow.tx.user.findUnique({ where: { ssoIssuer_ssoNameId: { ssoIssuer: issuer, ssoNameId: nameId } } });
  if (holder && holder.id !== user.id) throw new SsoLinkRefusedError('This identity is linked to another user');
  const linked = await uow.tx.user.update({ where: { id: user.id }, data: { ssoIssuer: issuer, ssoNameId: nameId } });
  await uow.audit({
    action: 'link_sso_identity',
    entityType: 'user',
    entityId: user.id,
    details: {
      username: user.username,
      issuer,
      name_id: nameId,
      source,
      previous: user.ssoNameId ? { issuer: user.ssoIssuer, name_id: user.ssoNameId } : null,
    },
  });
  uow.emit('user.changed', { userId: user.id, change: 'updated' });
  return linked;
}

/** An admin removes a user's identity provider link: that identity no longer signs in as them. Audited. */
export async function unlinkSsoIdentity(services: Services, actor: Actor, userId: string): Promise<SsoLink> {
  return inTransaction(services, actor, async (uow) => {
    const user = await uow.tx.user.findUnique({ where: { id: userId } });
    if (!user) throw new NotFoundError('User', userId);
    if (user.ssoNameId) {
      await uow.tx.user.update({ where: { id: user.id }, data: { ssoIssuer: null, ssoNameId: null } });
      await uow.audit({
        action: 'unlink_sso_identity',
        entityType: 'user',
        entityId: user.id,
        details: { username: user.username, issuer: user.ssoIssuer, name_id: user.ssoNameId },
      });
      uow.emit('user.changed', { userId: user.id, change: 'updated' });
    }
    return { userId: user.id, issuer: null, nameId: null };
  });
}
