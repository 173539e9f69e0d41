import { generateServiceProviderMetadata, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { XMLSerializer } from '@xmldom/xmldom';
import { SSO_REQUEST_TTL_MS } from '../../auth/sso-state.ts';
import type { Services } from '../../services.ts';
import { pemsOf } from './certificates.ts';
import { serviceProviderUrls, spEntityIdOf, type ReadySettings, type SsoSettings } from './settings.ts';
import { NS, parseXml } from './xml.ts';

/** How far the identity provider's clock may be from ours for NotBefore and NotOnOrAfter. */
export const CLOCK_SKEW_MS = 60_000;

const NAMEID_UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';
/** The NameID formats the metadata offers: any of them names the user (or the username attribute does). */
const NAMEID_FORMATS = [
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  NAMEID_UNSPECIFIED,
];

/**
 * node-saml configured for this service. Assertions must be signed; the whole Response must be signed when it
 * carries a signature (`responseSigned`), so a present but broken Response signature is never ignored. Answers
 * must be to an AuthnRequest this service issued (InResponseTo, kept in the shared SSO state); `requestId` is the id
 * of the AuthnRequest this client is about to issue.
 */
export function samlClient(
  services: Services,
  settings: ReadySettings,
  { responseSigned = false, requestId }: { responseSigned?: boolean; requestId?: string } = {},
): SAML {
  const spEntityId = spEntityIdOf(settings, services.config);
  return new SAML({
    entryPoint: settings.idpSsoUrl,
    issuer: spEntityId,
    audience: spEntityId,
    callbackUrl: serviceProviderUrls(services.config).acsUrl,
    idpCert: pemsOf(settings.idpCertificate),
    idpIssuer: settings.idpEntityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: responseSigned,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SSO_REQUEST_TTL_MS,
    cacheProvider: services.ssoState.requests,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    identifierFormat: NAMEID_UNSPECIFIED,
    // Identity providers decide how users authenticate (password, MFA, Windows): asking for one class breaks the others.
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
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
