import { ValidationError } from '../../errors.ts';
import { readCertificates } from './certificates.ts';
import { attributeOf, elements, parseXml } from './xml.ts';

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const FIELD = 'idpMetadataXml';

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  /** The signing certificates, PEM, one after the other. */
  certificate: string;
}

/**
 * The identity provider's entity id, HTTP-Redirect sign-on address and signing certificates, read from its SAML
 * metadata (an EntityDescriptor, or the first one with an IDPSSODescriptor in an EntitiesDescriptor).
 */
export function readIdpMetadata(xml: string): IdpMetadata {
  const document = parseXml(xml);
  if (!document) throw new ValidationError(FIELD, 'is not well-formed XML');
  const [descriptor] = elements('//md:EntityDescriptor[md:IDPSSODescriptor]', document);
  if (!descriptor) throw new ValidationError(FIELD, 'holds no EntityDescriptor with an IDPSSODescriptor');
  const entityId = attributeOf(descriptor, 'entityID');
  if (!entityId) throw new ValidationError(FIELD, 'names no entityID');
  const [idp] = elements('md:IDPSSODescriptor', descriptor);
  const ssoUrl = attributeOf(
    elements('md:SingleSignOnService', idp).find((service) => service.getAttribute('Binding') === REDIRECT_BINDING),
    'Location',
  );
  if (!ssoUrl) throw new ValidationError(FIELD, 'names no SingleSignOnService with the HTTP-Redirect binding');
  const keys = elements("md:KeyDescriptor[not(@use) or @use='signing']/ds:KeyInfo/ds:X509Data/ds:X509Certificate", idp);
  const certificates = keys.flatMap((key) => readCertificates(key.textContent ?? '') ?? []);
  if (!certificates.length) throw new ValidationError(FIELD, 'holds no signing certificate of the identity provider');
  return { entityId, ssoUrl, certificate: [...new Set(certificates.map((certificate) => certificate.pem))].join('') };
}
