import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { ValidationError } from '../../errors.ts';
import { Role } from '../../generated/prisma/enums.ts';
import { publicBaseUrl } from '../../storage/index.ts';
import { parseInput } from '../../validation.ts';
import { readCertificates } from './certificates.ts';
import { readIdpMetadata } from './idp-metadata.ts';

/** How far the identity provider's clock may be from ours for NotBefore and NotOnOrAfter. */
export const CLOCK_SKEW_MS = 60_000;

export const SSO_CONFIG_ID = 1;
/** Most role-mapping entries: a mapping names groups, not every user. */
export const ROLE_MAPPING_MAX = 200;
const NAME_MAX = 1024;
const METADATA_MAX = 500_000;
const CERTIFICATE_MAX = 100_000;

export interface AttributeMapping {
  username: string | null;
  email: string | null;
  role: string | null;
}

/** The stored settings. */
export interface SsoSettings {
  enabled: boolean;
  idpEntityId: string | null;
  idpSsoUrl: string | null;
  idpCertificate: string | null;
  spEntityId: string | null;
  attributeMapping: AttributeMapping;
  roleMapping: Record<string, Role>;
  defaultRole: Role;
  autoProvision: boolean;
  updatedAt: Date | null;
  updatedById: string | null;
}

/** Settings that can sign someone in: an enabled, complete identity provider. */
export type ReadySettings = SsoSettings & { idpEntityId: string; idpSsoUrl: string; idpCertificate: string };

const DEFAULTS: SsoSettings = {
  enabled: false,
  idpEntityId: null,
  idpSsoUrl: null,
  idpCertificate: null,
  spEntityId: null,
  attributeMapping: { username: null, email: null, role: null },
  roleMapping: {},
  defaultRole: Role.viewer,
  autoProvision: true,
  updatedAt: null,
  updatedById: null,
};

const name = z.string().trim().min(1, 'must not be empty').max(NAME_MAX, `must be at most ${NAME_MAX} characters`);
const httpUrl = z
  .string()
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine((value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol), 'must be an http(s) URL');
/** Passed through as given: a parsed copy would silently drop a `__proto__` key instead of refusing it. */
const roleMappingShape = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'must be an object of attribute value → role',
);
/** Keys that name an object's machinery rather than a group: refused, never stored or looked up. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const updateSchema = z
  .object({
    enabled: z.boolean(),
    idpEntityId: name.nullable(),
    idpSsoUrl: httpUrl.nullable(),
    idpCertificate: z.string().min(1, 'must not be empty').max(CERTIFICATE_MAX, `must be at most ${CERTIFICATE_MAX} characters`).nullable(),
    idpMetadataXml: z.string().min(1, 'must not be empty').max(METADATA_MAX, `must be at most ${METADATA_MAX} characters`).nullable(),
    spEntityId: name.nullable(),
    attributeMapping: z.object({ username: name.nullish(), email: name.nullish(), role: name.nullish() }).strict(),
    roleMapping: roleMappingShape,
    defaultRole: z.enum(Role),
    autoProvision: z.boolean(),
  })
  .partial()
  .strict();

export const isReady = (settings: SsoSettings): settings is ReadySettings =>
  Boolean(settings.idpEntityId && settings.idpSsoUrl && settings.idpCertificate);

const ROLES = new Set<string>(Object.values(Role));

/** Attribute value → role: keys are taken as written (group names and ids are case-sensitive). */
function readRoleMapping(mapping: Record<string, unknown>): Record<string, Role> {
  const entries = Object.entries(mapping);
  if (entries.length > ROLE_MAPPING_MAX) throw new ValidationError('roleMapping', `must have at most ${ROLE_MAPPING_MAX} entries`);
  for (const [value, role] of entries) {
    if (RESERVED_KEYS.has(value)) throw new ValidationError('roleMapping', `${JSON.stringify(value)} may not be an attribute value`);
    if (!value.trim() || value.length > NAME_MAX) {
      throw new ValidationError('roleMapping', `attribute values must be 1 to ${NAME_MAX} characters`);
    }
    if (typeof role !== 'string' || !ROLES.has(role)) {
      throw new ValidationError(
        'roleMapping',
        `${JSON.stringify(value)} maps to ${JSON.stringify(role)}, which is not a role (${[...ROLES].join(', ')})`,
      );
    }
  }
  return Object.fromEntries(entries) as Record<string, Role>;
}

function readCertificateField(text: string): string {
  const certificates = readCertificates(text);
  if (!certificates?.length) throw new ValidationError('idpCertificate', 'is not a PEM (or base64) X.509 certificate');
  return certificates.map((certificate) => certificate.pem).join('');
}

/**
 * The settings after an update: given fields replace the stored ones (null clears an optional one), omitted
 * fields keep theirs. Metadata XML supplies the entity id, sign-on address and certificate unless those are
 * given too. Enabling needs all three.
 */
export function mergeSettings(stored: SsoSettings, input: unknown): SsoSettings {
  const given = parseInput(updateSchema, input);
  const merged: SsoSettings = { ...stored, attributeMapping: { ...stored.attributeMapping } };
  if (given.idpMetadataXml) {
    const metadata = readIdpMetadata(given.idpMetadataXml);
    Object.assign(merged, { idpEntityId: metadata.entityId, idpSsoUrl: metadata.ssoUrl, idpCertificate: metadata.certificate });
  }
  if (given.idpEntityId !== undefined) merged.idpEntityId = given.idpEntityId;
  if (given.idpSsoUrl !== undefined) merged.idpSsoUrl = given.idpSsoUrl;
  if (given.idpCertificate !== undefined) merged.idpCertificate = given.idpCertificate && readCertificateField(given.idpCertificate);
  if (given.spEntityId !== undefined) merged.spEntityId = given.spEntityId;
  if (given.attributeMapping) {
    const { username = null, email = null, role = null } = given.attributeMapping;
    merged.attributeMapping = { username, email, role };
  }
  if (given.roleMapping) merged.roleMapping = readRoleMapping(given.roleMapping);
  if (given.defaultRole) merged.defaultRole = given.defaultRole;
  if (given.autoProvision !== undefined) merged.autoProvision = given.autoProvision;
  if (given.enabled !== undefined) merged.enabled = given.enabled;
  if (merged.enabled) {
    const missing = (['idpEntityId', 'idpSsoUrl', 'idpCertificate'] as const).find((field) => !merged[field]);
    if (missing) throw new ValidationError(missing, 'is required to enable single sign-on (or give idp_metadata_xml)');
  }
  return merged;
}

/** The stored settings, or the defaults before an admin has saved any. */
export async function loadSettings(db: Db): Promise<SsoSettings> {
  const row = await db.ssoConfig.findUnique({ where: { id: SSO_CONFIG_ID } });
  if (!row) return { ...DEFAULTS, attributeMapping: { ...DEFAULTS.attributeMapping } };
  const mapping = (row.attributeMapping ?? {}) as Partial<AttributeMapping>;
  return {
    enabled: row.enabled,
    idpEntityId: row.idpEntityId,
    idpSsoUrl: row.idpSsoUrl,
    idpCertificate: row.idpCertificate,
    spEntityId: row.spEntityId,
    attributeMapping: { username: mapping.username ?? null, email: mapping.email ?? null, role: mapping.role ?? null },
    roleMapping: (row.roleMapping ?? {}) as Record<string, Role>,
    defaultRole: row.defaultRole,
    autoProvision: row.autoProvision,
    updatedAt: row.updatedAt,
    updatedById: row.updatedById,
  };
}

/** The row's columns for `settings`. */
export function settingsRow(settings: SsoSettings, updatedById: string | null) {
  const { updatedAt: _updatedAt, updatedById: _previous, ...columns } = settings;
  return { ...columns, attributeMapping: { ...settings.attributeMapping }, roleMapping: { ...settings.roleMapping }, updatedById };
}

/** Where this service answers single sign-on: built from PUBLIC_URL, never from a request's Host header. */
export function serviceProviderUrls(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>) {
  const base = `${publicBaseUrl(config)}/api/v1/sso`;
  return { acsUrl: `${base}/callback`, metadataUrl: `${base}/metadata`, loginUrl: `${base}/login` };
}

/** The service provider's entity id: the configured one, else the metadata URL. */
export const spEntityIdOf = (settings: SsoSettings, config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string =>
  settings.spEntityId ?? serviceProviderUrls(config).metadataUrl;
