import { builder } from '../../graphql/builder.ts';
import { RoleEnum } from '../users/types.ts';
import type { SsoLink } from './links.ts';
import type { AttributeMapping } from './settings.ts';
import type { SsoConfigView, SsoStatus } from './service.ts';

export const SsoStatusType = builder.objectRef<SsoStatus>('SsoStatus').implement({
  description: 'Whether SAML single sign-on can be used.',
  fields: (t) => ({
    configured: t.exposeBoolean('configured', { description: "The identity provider's entity id, sign-on URL and certificate are set." }),
    enabled: t.exposeBoolean('enabled', { description: 'Configured and switched on: GET /api/v1/sso/login starts a sign-in.' }),
  }),
});

const SsoAttributeMappingType = builder.objectRef<AttributeMapping>('SsoAttributeMapping').implement({
  description: 'Names of the SAML attributes read at sign-in (null: not read).',
  fields: (t) => ({
    username: t.exposeString('username', { nullable: true, description: 'Null: the NameID is the username.' }),
    email: t.exposeString('email', { nullable: true }),
    role: t.exposeString('role', { nullable: true, description: 'Its values are looked up in roleMapping.' }),
  }),
});

export const SsoConfigType = builder.objectRef<SsoConfigView>('SsoConfig').implement({
  description: 'The SAML single sign-on settings, and the addresses to enter at the identity provider. Nothing here is secret.',
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled'),
    configured: t.exposeBoolean('configured'),
    idpEntityId: t.exposeString('idpEntityId', { nullable: true }),
    idpSsoUrl: t.exposeString('idpSsoUrl', { nullable: true, description: 'Where AuthnRequests go (HTTP-Redirect binding).' }),
    idpCertificate: t.exposeString('idpCertificate', { nullable: true, description: 'PEM; several while the IdP rolls its key over.' }),
    idpCertificateExpiresAt: t.expose('idpCertificateExpiresAt', { type: 'DateTime', nullable: true, description: 'The earliest expiry.' }),
    spEntityId: t.exposeString('spEntityId', {
      description: 'This service as the IdP knows it (default: the metadata URL); the audience.',
    }),
    acsUrl: t.exposeString('acsUrl', { description: 'Assertion consumer service (HTTP-POST): <PUBLIC_URL>/api/v1/sso/callback.' }),
    metadataUrl: t.exposeString('metadataUrl', { description: 'Service provider metadata: <PUBLIC_URL>/api/v1/sso/metadata.' }),
    attributeMapping: t.expose('attributeMapping', { type: SsoAttributeMappingType }),
    roleMapping: t.expose('roleMapping', { type: 'JSON', description: 'Role attribute value → role, e.g. {"Violet Admins": "admin"}.' }),
    defaultRole: t.expose('defaultRole', { type: RoleEnum, description: 'The role of new users whose role values map to none.' }),
    autoProvision: t.exposeBoolean('autoProvision', { description: 'Unknown users are created at their first sign-in.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true }),
    updatedBy: t.exposeString('updatedById', { nullable: true, description: 'Id of the admin who saved the settings last.' }),
  }),
});

const SsoAttributeMappingInput = builder.inputType('SsoAttributeMappingInput', {
  fields: (t) => ({
    username: t.string({ required: false, description: 'Null or absent: the NameID.' }),
    email: t.string({ required: false, description: 'e.g. http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress' }),
    role: t.string({ required: false, description: 'e.g. http://schemas.microsoft.com/ws/2008/06/identity/claims/groups' }),
  }),
});

export const UpdateSsoConfigInput = builder.inputType('UpdateSsoConfigInput', {
  description: 'Given fields replace the stored ones (null clears an optional one); omitted fields keep theirs.',
  fields: (t) => ({
    enabled: t.boolean({ required: false, description: 'Needs the entity id, sign-on URL and certificate of the IdP.' }),
    idpEntityId: t.string({ required: false }),
    idpSsoUrl: t.string({ required: false, description: 'http(s) URL of the HTTP-Redirect SingleSignOnService.' }),
    idpCertificate: t.string({ required: false, description: 'PEM (one or more certificates) or bare base64.' }),
    idpMetadataXml: t.string({
      required: false,
      description: "The IdP's SAML metadata: supplies the entity id, sign-on URL and certificate unless those are given too.",
    }),
    spEntityId: t.string({ required: false, description: 'Null: the metadata URL.' }),
    attributeMapping: t.field({ type: SsoAttributeMappingInput, required: false, description: 'Replaces the whole mapping.' }),
    roleMapping: t.field({ type: 'JSON', required: false, description: 'Role attribute value → role (at most 200 entries).' }),
    defaultRole: t.field({ type: RoleEnum, required: false, description: 'Default viewer.' }),
    autoProvision: t.boolean({ required: false, description: 'Default true.' }),
  }),
});

export const SsoLinkType = builder.objectRef<SsoLink>('SsoLink').implement({
  description: 'The identity provider identity (issuer + NameID) that signs in as a user; null when none does.',
  fields: (t) => ({
    userId: t.exposeString('userId'),
    issuer: t.exposeString('issuer', { nullable: true, description: "The identity provider's entity id." }),
    nameId: t.exposeString('nameId', { nullable: true, description: 'The NameID the identity provider sends for this user.' }),
  }),
});

export const LinkSsoIdentityInput = builder.inputType('LinkSsoIdentityInput', {
  fields: (t) => ({
    nameId: t.string({ required: true, description: "The user's NameID at the configured identity provider (a persistent id is best)." }),
  }),
});
