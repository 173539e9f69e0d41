import { beforeAll, expect } from 'vitest';
import type { TestApp } from './app.ts';
import { TestIdp, type AuthnRequest, type ServiceProvider } from './saml-idp.ts';

/** The address the service is configured to be reached at in SSO tests (the ACS URL and SP entity id derive from it). */
export const SSO_PUBLIC_URL = 'https://violet.example.test';

export const SP: ServiceProvider = {
  entityId: `${SSO_PUBLIC_URL}/api/v1/sso/metadata`,
  acsUrl: `${SSO_PUBLIC_URL}/api/v1/sso/callback`,
};

export const ROLE_ATTRIBUTE = 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups';
export const EMAIL_ATTRIBUTE = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress';

/** Configures and enables single sign-on with `idp` (every setting, so earlier changes are undone), as an admin. */
export async function enableSso(app: TestApp, idp: TestIdp, extra: Record<string, unknown> = {}) {
  const response = await app.api('PUT', '/sso/config', {
    token: await app.tokenFor('admin'),
    body: {
      enabled: true,
      idp_entity_id: idp.entityId,
      idp_sso_url: idp.ssoUrl,
      idp_certificate: idp.keys.cert,
      attribute_mapping: { email: EMAIL_ATTRIBUTE, role: ROLE_ATTRIBUTE },
      role_mapping: { 'Violet Admins': 'admin', 'Red Team': 'red_tech', blue_leads: 'blue_lead' },
      default_role: 'viewer',
      auto_provision: true,
      sp_entity_id: null,
      ...extra,
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/**
 * A test IdP created before the file's tests (after `app` has started), with single sign-on enabled for it unless
 * `enable` is false. Like `useTestApp`, it answers only between beforeAll and afterAll.
 */
export function useTestIdp(app: TestApp, { enable = true }: { enable?: boolean } = {}): TestIdp {
  let idp: TestIdp | undefined;
  beforeAll(async () => {
    idp = await TestIdp.create();
    if (enable) await enableSso(app, idp);
  });
  return new Proxy({} as TestIdp, {
    get(_target, key) {
      if (!idp) throw new Error('The test IdP exists only between beforeAll and afterAll');
      return Reflect.get(idp, key);
    },
  });
}

const EMPTY_SIGNATURE = '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/>';

/** A signed answer of `idp` to `inResponseTo` with `count` empty signature elements appended to the Response. */
export function withEmptySignatures(idp: TestIdp, inResponseTo: string, count: number): string {
  const xml = idp.responseXml(SP, { inResponseTo, nameId: 'stall@example.test' });
  return Buffer.from(xml.replace('</samlp:Response>', `${EMPTY_SIGNATURE.repeat(count)}</samlp:Response>`)).toString('base64');
}

/** A sign-in this browser started: the AuthnRequest, where it was sent, and the cookie that ties it to the browser. */
export type StartedSignIn = AuthnRequest & { location: string; cookie: string; setCookie: string };

/** GET /sso/login: the 302 to the IdP, the AuthnRequest it carries and the svc_sso_request cookie. */
export async function startSsoLogin(app: TestApp, relayState?: string): Promise<StartedSignIn> {
  const query = relayState === undefined ? '' : `?relay_state=${encodeURIComponent(relayState)}`;
  const response = await fetch(`${app.url}/api/v1/sso/login${query}`, { redirect: 'manual' });
  expect(response.status, await response.clone().text()).toBe(302);
  const location = response.headers.get('location')!;
  const setCookie = response.headers.getSetCookie().find((value) => value.startsWith('svc_sso_request='))!;
  return { ...TestIdp.authnRequest(location), location, setCookie, cookie: setCookie.split(';')[0] };
}

/** SAML attributes of an answer: name to value(s). */
export type SamlAttributes = Record<string, string | string[]>;

/** A whole sign-in of `nameId`: the login redirect, the IdP's answer to that request, the callback. */
export async function signInThroughIdp(app: TestApp, idp: TestIdp, nameId: string, attributes: SamlAttributes = {}) {
  const request = await startSsoLogin(app);
  return postSsoCallback(app, idp.response(SP, { inResponseTo: request.id, nameId, attributes }), { started: request });
}

export interface CallbackOptions {
  relayState?: string;
  /** The sign-in the posting browser started (its cookie goes along); null: a browser that started none. */
  started: Pick<StartedSignIn, 'cookie'> | null;
  headers?: Record<string, string>;
}

export interface CallbackAnswer {
  status: number;
  location: string | null;
  cookie: string | null;
  token: string | null;
  /** The answer removes the svc_sso_request cookie. */
  clearsRequestCookie: boolean;
  body: any;
}

/** POST /sso/callback as the browser does after the IdP's page (HTTP-POST binding). */
export async function postSsoCallback(app: TestApp, samlResponse: string, options: CallbackOptions): Promise<CallbackAnswer> {
  const { relayState = '/', started, headers = {} } = options;
  const response = await fetch(`${app.url}/api/v1/sso/callback`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(started ? { cookie: started.cookie } : {}), ...headers },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }),
  });
  const cookies = response.headers.getSetCookie();
  const cookie = cookies.find((value) => value.startsWith('svc_token=')) ?? null;
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return {
    status: response.status,
    location: response.headers.get('location'),
    cookie,
    token: cookie?.match(/^svc_token=([^;]+)/)?.[1] ?? null,
    clearsRequestCookie: cookies.some((value) => /^svc_sso_request=;/.test(value)),
    body,
  };
}
