import { generateServiceProviderMetadata, SAML, type SamlConfig, ValidateInResponseTo } from '@node-saml/node-saml';
import { XMLSerializer } from '@xmldom/xmldom';
import { SSO_REQUEST_TTL_MS } from '../../auth/sso-state.ts';
import type { Services } from '../../services.ts';
import { pemsOf } from './certificates.ts';
import { CLOCK_SKEW_MS, serviceProviderUrls, spEntityIdOf, type ReadySettings, type SsoSettings } from './settings.ts';
import { NS, parseXml } from './xml.ts';

const NAMEID_UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';
/** The NameID formats the metadata offers: any of them names the user (or the username attribute does). */
const NAMEID_FORMATS = [
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  NAMEID_UNSPECIFIED,
];

/**
 * node-saml's settings for this service, as plain data (they also go to the XML workers). Assertions must be
 * signed; the whole Response must be signed when it carries a signature (set per answer, see `verify-worker.ts`),
 * so a present but broken Response signature is never ignored. Answers must be to an AuthnRequest this service
 * issued (InResponseTo, kept in the shared SSO state).
 */
export function samlOptions(services: Services, settings: ReadySettings) {
  const spEntityId = spEntityIdOf(settings, services.config);
  return {
    entryPoint: settings.idpSsoUrl,
    issuer: spEntityId,
    audience: spEntityId,
    callbackUrl: serviceProviderUrls(services.config).acsUrl,
    idpCert: pemsOf(settings.idpCertificate),
    idpIssuer: settings.idpEntityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SSO_REQUEST_TTL_MS,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    identifierFormat: NAMEID_UNSPECIFIED,
    // Identity providers decide how users authenticate (password, MFA, Windows): asking for one class breaks the others.
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256' as const,
  } satisfies SamlConfig;
}

export type SamlOptions = ReturnType<typeof samlOptions>;

/** node-saml issuing the AuthnRequest whose id is `requestId`, remembered in the shared SSO state. */
export function samlClient(services: Services, settings: ReadySettings, requestId: string): SAML {
  return new SAML({ ...samlOptions(services, settings), cacheProvider: services.ssoState.requests, generateUniqueId: () => requestId });
}

/** The service provider's metadata: entity id, assertion consumer service (HTTP-POST) and the NameID formats. */
export function serviceProviderMetadata(services: Services, settings: SsoSettings): string {
  const xml = generateServiceProviderMetadata({
    issuer: spEntityIdOf(settings, services.config),
    callbackUrl: serviceProviderUrls(services.config).acsUrl,
    identifierFormat: NAMEID_FORMATS[0],
    wantAssertionsSigned: true,
  });
  // node-saml writes one NameIDFormat; the others follow it, where the schema wants them (before the ACS).
  const document = parseXml(xml)!;
  const first = document.getElementsByTagNameNS(NS.md, 'NameIDFormat')[0];
  for (const format of NAMEID_FORMATS.slice(1).reverse()) {
    const element = document.createElementNS(NS.md, 'NameIDFormat');
    element.textContent = format;
    first.parentNode!.insertBefore(element, first.nextSibling);
  }
  return new XMLSerializer().serializeToString(document as never);
}
