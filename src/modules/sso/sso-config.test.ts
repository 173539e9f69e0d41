import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { SP, SSO_PUBLIC_URL, useTestIdp } from '../../../test/helpers/sso.ts';

const app = useTestApp({ PUBLIC_URL: SSO_PUBLIC_URL });
const idp = useTestIdp(app, { enable: false });
let admin: string;

beforeAll(async () => {
  admin = await app.tokenFor('admin');
});

const put = (body: unknown, token = admin) => app.api('PUT', '/sso/config', { token, body });

describe('SSO status and configuration: who may', () => {
  it('every signed-in role reads the status; anonymous callers get 401', async () => {
    for (const role of ['viewer', 'red_tech', 'blue_lead', 'admin'] as const) {
      const status = await app.api('GET', '/sso/status', { token: await app.tokenFor(role) });
      expect(status, role).toMatchObject({ status: 200, body: { configured: expect.any(Boolean), enabled: expect.any(Boolean) } });
      expect(Object.keys(status.body).sort()).toEqual(['configured', 'enabled']);
    }
    expect((await app.api('GET', '/sso/status')).status).toBe(401);
  });

  it('only admins read or change the settings (403 for the other roles, nothing changed)', async () => {
    for (const role of ['viewer', 'red_lead', 'blue_lead', 'red_tech'] as const) {
      const token = await app.tokenFor(role);
      expect(await put({ idp_entity_id: 'https://evil.example.test' }, token), role).toMatchObject({
        status: 403,
        body: { code: 'FORBIDDEN' },
      });
      expect((await app.api('GET', '/sso/config', { token })).status, role).toBe(403);
    }
    expect((await app.api('GET', '/sso/config', { token: admin })).body.idp_entity_id).not.toBe('https://evil.example.test');
    const graphql = await app.graphql(
      'mutation { updateSsoConfig(input: { enabled: false }) { enabled } }',
      {},
      await app.tokenFor('blue_lead'),
    );
    expect(graphql.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('SSO configuration', () => {
  it('starts unconfigured, with the addresses to give the identity provider', async () => {
    const fresh = await app.api('GET', '/sso/config', { token: admin });
    expect(fresh).toMatchObject({
      status: 200,
      body: {
        enabled: false,
        configured: false,
        idp_entity_id: null,
        sp_entity_id: SP.entityId,
        acs_url: SP.acsUrl,
        metadata_url: `${SSO_PUBLIC_URL}/api/v1/sso/metadata`,
        attribute_mapping: { username: null, email: null, role: null },
        role_mapping: {},
        default_role: 'viewer',
        auto_provision: true,
      },
    });
  });

  it('reads the entity id, sign-on URL and certificate from IdP metadata, and answers the stored configuration', async () => {
    const saved = await put({
      enabled: true,
      idp_metadata_xml: idp.metadataXml(),
      attribute_mapping: { email: 'mail', role: 'groups' },
      role_mapping: { violet_admins: 'admin', 'Red Team': 'red_lead', 'a1b2c3d4-0000-4000-8000-000000000000': 'blue_tech' },
      default_role: 'blue_tech',
      auto_provision: false,
    });
    expect(saved).toMatchObject({
      status: 200,
      body: {
        enabled: true,
        configured: true,
        idp_entity_id: idp.entityId,
        idp_sso_url: idp.ssoUrl,
        idp_certificate: expect.stringContaining('-----BEGIN CERTIFICATE-----'),
        idp_certificate_expires_at: expect.any(String),
        attribute_mapping: { username: null, email: 'mail', role: 'groups' },
        // Group names and ids as written: the REST edge does not rewrite them like field names.
        role_mapping: { violet_admins: 'admin', 'Red Team': 'red_lead', 'a1b2c3d4-0000-4000-8000-000000000000': 'blue_tech' },
        default_role: 'blue_tech',
        auto_provision: false,
        updated_by: expect.any(String),
      },
    });
    expect(saved.body.idp_certificate.replace(/-----[^-]+-----|\s/g, '')).toBe(idp.certificateBase64);
    expect(await app.api('GET', '/sso/config', { token: admin })).toMatchObject({ status: 200, body: saved.body });
    expect((await app.api('GET', '/sso/status', { token: await app.tokenFor('viewer') })).body).toEqual({
      configured: true,
      enabled: true,
    });

    const graphql = await app.graphql(
      '{ ssoConfig { idpEntityId roleMapping defaultRole attributeMapping { role } } ssoStatus { enabled } }',
      {},
      admin,
    );
    expect(graphql.data).toEqual({
      ssoConfig: {
        idpEntityId: idp.entityId,
        roleMapping: saved.body.role_mapping,
        defaultRole: 'blue_tech',
        attributeMapping: { role: 'groups' },
      },
      ssoStatus: { enabled: true },
    });
  });

  it('keeps omitted fields, clears those given as null, and audits what changed (certificates by fingerprint)', async () => {
    await put({ enabled: false, idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.certificateBase64 });
    const changed = await put({ sp_entity_id: 'urn:violet', auto_provision: true });
    expect(changed.body).toMatchObject({ sp_entity_id: 'urn:violet', auto_provision: true, idp_entity_id: idp.entityId, enabled: false });
    const cleared = await put({ sp_entity_id: null, attribute_mapping: {} });
    expect(cleared.body).toMatchObject({ sp_entity_id: SP.entityId, attribute_mapping: { username: null, email: null, role: null } });

    const entries = await app.services.prisma.auditLog.findMany({
      where: { action: 'update_sso_config' },
      orderBy: { timestamp: 'desc' },
      take: 3,
    });
    expect(entries[1].details).toEqual({ changes: { spEntityId: 'urn:violet', autoProvision: true } });
    expect(entries[0].details).toEqual({ changes: { spEntityId: null, attributeMapping: { username: null, email: null, role: null } } });
    const withCertificate = await app.services.prisma.auditLog.findMany({ where: { action: 'update_sso_config' } });
    expect(JSON.stringify(withCertificate)).not.toContain('BEGIN CERTIFICATE');
  });

  it.each([
    ['a certificate that is not PEM', { idp_certificate: 'not a certificate' }, 'idp_certificate'],
    [
      'a PEM block that is not a certificate',
      { idp_certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' },
      'idp_certificate',
    ],
    ['an unknown role in role_mapping', { role_mapping: { 'Red Team': 'superuser' } }, 'role_mapping'],
    ['a role_mapping that is not an object', { role_mapping: ['admin'] }, 'role_mapping'],
    ['a role_mapping key __proto__', { role_mapping: JSON.parse('{"Red Team": "red_tech", "__proto__": "admin"}') }, 'role_mapping'],
    ['a role_mapping key constructor', { role_mapping: { constructor: 'admin' } }, 'role_mapping'],
    ['a role_mapping key prototype', { role_mapping: { prototype: 'viewer' } }, 'role_mapping'],
    ['metadata XML without a certificate', { idp_metadata_xml: 'METADATA_WITHOUT_CERTIFICATE' }, 'idp_metadata_xml'],
    ['metadata that is not XML', { idp_metadata_xml: '<md:EntityDescriptor' }, 'idp_metadata_xml'],
    ['metadata with a document type declaration', { idp_metadata_xml: '<!DOCTYPE x><x/>' }, 'idp_metadata_xml'],
    [
      'metadata of no identity provider',
      { idp_metadata_xml: '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>' },
      'idp_metadata_xml',
    ],
    ['a sign-on URL that is not http(s)', { idp_sso_url: 'javascript:alert(1)' }, 'idp_sso_url'],
    ['an empty entity id', { idp_entity_id: '  ' }, 'idp_entity_id'],
    ['an unknown default role', { default_role: 'root' }, 'default_role'],
    ['a flag that is not a boolean', { auto_provision: 'yes' }, 'auto_provision'],
    ['an unknown attribute-mapping key', { attribute_mapping: { department: 'dept' } }, 'attribute_mapping.department'],
    [
      'enabling without a certificate',
      { enabled: true, idp_entity_id: 'x', idp_sso_url: 'https://idp.test/sso', idp_certificate: null },
      'idp_certificate',
    ],
  ])('refuses %s: 400 naming %s, nothing stored', async (_name, body, field) => {
    const before = (await app.api('GET', '/sso/config', { token: admin })).body;
    const given =
      (body as { idp_metadata_xml?: string }).idp_metadata_xml === 'METADATA_WITHOUT_CERTIFICATE'
        ? { idp_metadata_xml: idp.metadataXml({ withCertificate: false }) }
        : body;
    const response = await put(given);
    expect(response).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field } });
    expect(response.body.detail).toMatch(new RegExp(`^${field}`));
    expect((await app.api('GET', '/sso/config', { token: admin })).body).toEqual(before);
  });

  it('refuses unknown fields with 400', async () => {
    expect(await put({ idp_private_key: 'x' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });
});

describe('the sign-in page asks whether to offer single sign-on', () => {
  it('anonymous callers read ssoSignIn: true only while SSO is configured and enabled, and nothing else of the settings', async () => {
    const signIn = async () => (await app.graphql('{ ssoSignIn }')).data;
    await put({ enabled: false, idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.certificateBase64 });
    expect(await signIn()).toEqual({ ssoSignIn: false });
    await put({ enabled: true });
    expect(await signIn()).toEqual({ ssoSignIn: true });
    expect((await app.graphql('{ ssoStatus { configured } }')).errors?.[0].extensions.code).toBe('NOT_AUTHENTICATED');
    await put({ enabled: false });
    expect(await signIn()).toEqual({ ssoSignIn: false });
  });
});
