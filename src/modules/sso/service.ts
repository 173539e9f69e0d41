import { randomBytes } from 'node:crypto';
import { inTransaction, type Actor } from '../../db/unit-of-work.ts';
import type { Role } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { readCertificates } from './certificates.ts';
import { SsoDisabledError } from './errors.ts';
import { safeRelayPath } from './relay-state.ts';
import { samlClient, serviceProviderMetadata } from './saml.ts';
import {
  isReady,
  loadSettings,
  mergeSettings,
  serviceProviderUrls,
  settingsRow,
  spEntityIdOf,
  SSO_CONFIG_ID,
  type AttributeMapping,
  type SsoSettings,
} from './settings.ts';

export interface SsoStatus {
  /** The identity provider's entity id, sign-on address and certificate are set. */
  configured: boolean;
  /** Configured and switched on: /sso/login starts a sign-in. */
  enabled: boolean;
}

/** The settings as admins read them: everything stored (nothing in it is secret) and the addresses to give the IdP. */
export interface SsoConfigView extends SsoStatus {
  idpEntityId: string | null;
  idpSsoUrl: string | null;
  idpCertificate: string | null;
  idpCertificateExpiresAt: Date | null;
  spEntityId: string;
  acsUrl: string;
  metadataUrl: string;
  attributeMapping: AttributeMapping;
  roleMapping: Record<string, Role>;
  defaultRole: Role;
  autoProvision: boolean;
  updatedAt: Date | null;
  updatedById: string | null;
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

/**
 * A new AuthnRequest: its id, remembered as issued, and the identity provider's address that carries it
 * (HTTP-Redirect binding) with the relay state.
 */
export async function startSignIn(services: Services, relayState: unknown): Promise<{ requestId: string; location: string }> {
  const settings = await loadSettings(services.prisma);
  if (!settings.enabled || !isReady(settings)) throw new SsoDisabledError();
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const location = await samlClient(services, settings, { requestId }).getAuthorizeUrlAsync(safeRelayPath(relayState), undefined, {});
  return { requestId, location };
}

/** The service provider metadata, also before an identity provider is configured (admins need it to set one up). */
export async function metadataXml(services: Services): Promise<string> {
  return serviceProviderMetadata(services, await loadSettings(services.prisma));
}
