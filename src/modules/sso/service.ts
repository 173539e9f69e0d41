import { randomBytes } from 'node:crypto';
import type { CacheProvider } from '@node-saml/node-saml';
import { inTransaction, type Actor } from '../../db/unit-of-work.ts';
import type { Services } from '../../services.ts';
import { readCertificates } from './certificates.ts';
import type { Principal } from '../../auth/access.ts';
import { ForbiddenError } from '../../errors.ts';
import { AuthSource } from '../../generated/prisma/enums.ts';
import { SsoDisabledError, SsoLinkRefusedError } from './errors.ts';
import { safeRelayPath } from './relay-state.ts';
import {
  isReady,
  loadSettings,
  mergeSettings,
  serviceProviderUrls,
  settingsRow,
  spEntityIdOf,
  SSO_CONFIG_ID,
  type SsoSettings,
} from './settings.ts';

export interface SsoStatus {
  /** The identity provider's entity id, sign-on address and certificate are set. */
  configured: boolean;
  /** Configured and switched on: /sso/login starts a sign-in. */
  enabled: boolean;
}

/** The settings as admins read them: everything stored (nothing in it is secret) and the addresses to give the IdP. */
export interface SsoConfigView extends SsoStatus, Omit<SsoSettings, 'enabled' | 'spEntityId'> {
  idpCertificateExpiresAt: Date | null;
  spEntityId: string;
  acsUrl: string;
  metadataUrl: string;
}

const statusOf = (settings: SsoSettings): SsoStatus => ({ configured: isReady(settings), enabled: settings.enabled && isReady(settings) });

export async function getSsoStatus(services: Services): Promise<SsoStatus> {
  return statusOf(await loadSettings(services.prisma));
}

function view(services: Services, settings: SsoSettings): SsoConfigView {
  const { acsUrl, metadataUrl } = serviceProviderUrls(services.config);
  const certificates = settings.idpCertificate ? (readCertificates(settings.idpCertificate) ?? []) : [];
  const expiries = certificates.map((certificate) => certificate.expiresAt.getTime());
  return {
    ...statusOf(settings),
    idpEntityId: settings.idpEntityId,
    idpSsoUrl: settings.idpSsoUrl,
    idpCertificate: settings.idpCertificate,
    idpCertificateExpiresAt: expiries.length ? new Date(Math.min(...expiries)) : null,
    spEntityId: spEntityIdOf(settings, services.config),
    acsUrl,
    metadataUrl,
    attributeMapping: settings.attributeMapping,
    roleMapping: settings.roleMapping,
    defaultRole: settings.defaultRole,
    autoProvision: settings.autoProvision,
    updatedAt: settings.updatedAt,
    updatedById: settings.updatedById,
  };
}

export async function getSsoConfig(services: Services): Promise<SsoConfigView> {
  return view(services, await loadSettings(services.prisma));
}

/** Applies an admin's changes (see `mergeSettings`) to the one settings row, locked while it is merged. */
export async function updateSsoConfig(services: Services, actor: Actor, input: unknown): Promise<SsoConfigView> {
  const saved = await inTransaction(services, actor, async (uow) => {
    await uow.tx.ssoConfig.createMany({ data: [{ id: SSO_CONFIG_ID }], skipDuplicates: true });
    await uow.tx.$queryRaw`SELECT id FROM sso_config WHERE id = ${SSO_CONFIG_ID} FOR UPDATE`;
    const before = await loadSettings(uow.tx);
    const after = mergeSettings(before, input);
    await uow.tx.ssoConfig.update({ where: { id: SSO_CONFIG_ID }, data: settingsRow(after, actor.userId) });
    await uow.audit({ action: 'update_sso_config', entityType: 'sso_config', entityId: null, details: auditDetails(before, after) });
    return loadSettings(uow.tx);
  });
  return view(services, saved);
}

/** The changed settings, certificates by fingerprint rather than in full. */
function auditDetails(before: SsoSettings, after: SsoSettings) {
  const shown = (settings: SsoSettings) => ({
    ...settingsRow(settings, null),
    idpCertificate: (readCertificates(settings.idpCertificate ?? '') ?? []).map((certificate) => certificate.fingerprint),
  });
  const [old, now] = [shown(before), shown(after)];
  const changed = (Object.keys(now) as (keyof typeof now)[]).filter(
    (key) => key !== 'updatedById' && JSON.stringify(old[key]) !== JSON.stringify(now[key]),
  );
  return { changes: Object.fromEntries(changed.map((key) => [key, now[key]])) };
}

/** The key under which a sign-in started by a signed-in user, to link their account, names that user. */
export const linkKey = (requestId: string) => `link:${requestId}`;

const REQUEST_ID = /^_[0-9a-f]{40}$/;

/** node-saml's view of the request cache: only ids of the form this service issues, never another key (`link:…`). */
export const issuedRequests = (cache: CacheProvider): CacheProvider => ({
  ...cache,
  getAsync: (key) => (REQUEST_ID.test(key) ? cache.getAsync(key) : Promise.resolve(null)),
});

/**
 * A new AuthnRequest: its id, remembered as issued, and the identity provider's address that carries it
 * (HTTP-Redirect binding) with the relay state. With `linkUserId`, the answer links that account to the identity
 * instead of signing anyone in by it (`startLink`).
 */
export async function startSignIn(
  services: Services,
  relayState: unknown,
  linkUserId?: string,
): Promise<{ requestId: string; location: string }> {
  const settings = await loadSettings(services.prisma);
  if (!settings.enabled || !isReady(settings)) throw new SsoDisabledError();
  services.samlVerifier.warm();
  const requestId = `_${randomBytes(20).toString('hex')}`;
  // node-saml and its XML libraries are loaded at the first sign-in, not at start.
  const { samlClient } = await import('./saml.ts');
  const location = await samlClient(services, settings, requestId).getAuthorizeUrlAsync(safeRelayPath(relayState), undefined, {});
  if (linkUserId) await services.ssoState.requests.saveAsync(linkKey(requestId), linkUserId);
  return { requestId, location };
}

/**
 * A user signed in with their password (a session, not an API key) starts a sign-in at the identity provider that
 * links their own account to the identity they authenticate as. Not for IdP-owned accounts or the first admin.
 */
export async function startLink(services: Services, principal: Principal | null, relayState: unknown) {
  if (principal?.via !== 'token') throw new ForbiddenError('Only a signed-in session links its own account');
  const user = await services.prisma.user.findUniqueOrThrow({ where: { id: principal.userId } });
  if (user.isBootstrap) throw new SsoLinkRefusedError('The first administrator is never linked to an identity provider');
  if (user.authSource !== AuthSource.local) throw new SsoLinkRefusedError('Only an account with a password is linked this way');
  return startSignIn(services, relayState, user.id);
}

/** The service provider metadata, also before an identity provider is configured (admins need it to set one up). */
export async function metadataXml(services: Services): Promise<string> {
  const { serviceProviderMetadata } = await import('./saml.ts');
  return serviceProviderMetadata(services, await loadSettings(services.prisma));
}
