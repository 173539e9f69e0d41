import { snakeToCamel } from '../../naming.ts';
import { body, path, type Route } from '../../../rest-adapter/types.ts';
import { setSessionCookie } from '../auth/session-cookie.ts';
import { ssoRoles } from './permissions.ts';
import { clearSsoRequestCookie, setSsoRequestCookie, ssoRequestCookie } from './request-cookie.ts';
import { metadataXml, startLink, startSignIn } from './service.ts';
import { signInWithSaml } from './sign-in.ts';

const CONFIG_FIELDS = `enabled configured idpEntityId idpSsoUrl idpCertificate idpCertificateExpiresAt spEntityId acsUrl
  metadataUrl attributeMapping { username email role } roleMapping defaultRole autoProvision updatedAt updatedBy`;
const UPDATE_CONFIG = `mutation ($input: UpdateSsoConfigInput!) { updateSsoConfig(input: $input) { ${CONFIG_FIELDS} } }`;

/** Top-level keys only: the keys of role_mapping are attribute values (group names), kept as written. */
const topLevelCamel = (body: unknown) =>
  body && typeof body === 'object' && !Array.isArray(body)
    ? Object.fromEntries(Object.entries(body).map(([key, value]) => [snakeToCamel(key), value]))
    : body;

const LINK_FIELDS = 'userId issuer nameId';

export const ssoRoutes: Route[] = [
  {
    method: 'PUT',
    path: '/users/:id/sso-identity',
    tag: 'SSO',
    summary:
      'Link a user to a NameID of the configured identity provider ({ name_id }); never the first administrator (409 SSO_LINK_REFUSED)',
    roles: ssoRoles.link,
    document: `mutation ($userId: UUID!, $input: LinkSsoIdentityInput!) { linkSsoIdentity(userId: $userId, input: $input) { ${LINK_FIELDS} } }`,
    variables: { userId: path('id'), input: body() },
  },
  {
    method: 'DELETE',
    path: '/users/:id/sso-identity',
    tag: 'SSO',
    summary: "Remove a user's identity provider link",
    roles: ssoRoles.link,
    document: `mutation ($userId: UUID!) { unlinkSsoIdentity(userId: $userId) { ${LINK_FIELDS} } }`,
    variables: { userId: path('id') },
  },
  {
    method: 'GET',
    path: '/sso/status',
    tag: 'SSO',
    summary: 'Whether SAML single sign-on is configured and enabled',
    roles: ssoRoles.status,
    document: 'query { ssoStatus { configured enabled } }',
  },
  {
    // Not in the specification: admins read what PUT /sso/config stored, and the addresses to give the IdP.
    method: 'GET',
    path: '/sso/config',
    tag: 'SSO',
    summary: 'The SSO settings as stored, with the SP entity id, ACS URL and metadata URL to enter at the identity provider',
    roles: ssoRoles.config,
    document: `query { ssoConfig { ${CONFIG_FIELDS} } }`,
  },
  {
    method: 'PUT',
    path: '/sso/config',
    tag: 'SSO',
    summary:
      'Change the SSO settings: enabled, idp_entity_id, idp_sso_url, idp_certificate (or idp_metadata_xml), sp_entity_id, ' +
      'attribute_mapping {username, email, role}, role_mapping {value: role}, default_role, auto_provision. Omitted fields keep their value',
    roles: ssoRoles.config,
    requestType: 'application/json',
    documents: [UPDATE_CONFIG],
    // A custom row only because the generic one would rewrite role_mapping's keys (group names) to camelCase.
    async handle(req, res, { execute }) {
      res.json(await execute(UPDATE_CONFIG, { input: topLevelCamel(req.body ?? {}) }));
    },
  },
  {
    method: 'GET',
    path: '/sso/login',
    tag: 'SSO',
    summary:
      'Start a sign-in: redirects (302) to the identity provider with an AuthnRequest, and sets the svc_sso_request cookie that ties it to this browser; relay_state is the path to land on',
    roles: 'public',
    status: 302,
    queryParameters: { relay_state: { type: 'string' } },
    async handle(req, res, { context }) {
      const { requestId, location } = await startSignIn(context.services, req.query.relay_state);
      setSsoRequestCookie(req, res, context.services, requestId);
      // Each redirect carries a new request id: no cache may hand one to another browser.
      res.set('Cache-Control', 'no-store').redirect(302, location);
    },
  },
  {
    method: 'GET',
    path: '/sso/link',
    tag: 'SSO',
    summary:
      'Link the signed-in account (password sessions) to an identity at the identity provider: redirects (302) like /sso/login; ' +
      'the callback then links the identity it returns to this account and signs in',
    roles: ssoRoles.selfLink,
    status: 302,
    queryParameters: { relay_state: { type: 'string' } },
    async handle(req, res, { context }) {
      const { requestId, location } = await startLink(context.services, context.auth.principal ?? null, req.query.relay_state);
      setSsoRequestCookie(req, res, context.services, requestId);
      res.set('Cache-Control', 'no-store').redirect(302, location);
    },
  },
  {
    method: 'POST',
    path: '/sso/callback',
    tag: 'SSO',
    summary:
      'Assertion consumer service (HTTP-POST binding: form SAMLResponse, RelayState): signs in, sets the svc_token cookie and ' +
      'redirects (303) to the relay state; 401 SSO_FAILED when the response is refused',
    roles: 'public',
    status: 303,
    errors: ['SSO_FAILED'],
    requestType: 'application/x-www-form-urlencoded',
    // Holds a SAMLResponse of SSO_MAX_RESPONSE_SIZE (at most 96 KB: 128 KB of base64, some of it percent-encoded) and a relay state.
    bodyLimit: '160kb',
    crossSiteAllowed:
      "the identity provider's page posts this form from its own origin by design; it authenticates by the signed assertion, " +
      'never by the session cookie, and only completes the sign-in this browser started (svc_sso_request)',
    async handle(req, res, { context }) {
      const callback = { form: req.body ?? {}, startedRequestId: ssoRequestCookie(req), clientIp: context.clientIp };
      const { session, redirectTo } = await signInWithSaml(context.services, callback);
      clearSsoRequestCookie(req, res, context.services);
      setSessionCookie(req, res, context.services, session);
      res.redirect(303, redirectTo);
    },
  },
  {
    method: 'GET',
    path: '/sso/metadata',
    tag: 'SSO',
    summary: 'Service-provider metadata XML (entity id, ACS URL, NameID formats), to upload to the identity provider',
    roles: 'public',
    responseTypes: ['application/samlmetadata+xml'],
    async handle(_req, res, { context }) {
      res.type('application/samlmetadata+xml').send(await metadataXml(context.services));
    },
  },
];
