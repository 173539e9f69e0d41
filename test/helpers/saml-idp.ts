import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/** A key pair and self-signed certificate, as an identity provider signs with. */
export interface SigningKeys {
  cert: string;
  privateKey: string;
}

export async function signingKeys(commonName = 'Test IdP'): Promise<SigningKeys> {
  const pems = await generate([{ name: 'commonName', value: commonName }], { keySize: 2048, algorithm: 'sha256' });
  return { cert: pems.cert, privateKey: pems.private };
}

/** The service provider an answer is addressed to. */
export interface ServiceProvider {
  entityId: string;
  acsUrl: string;
}

export interface AnswerOptions {
  inResponseTo: string | null;
  nameId: string;
  attributes?: Record<string, string | string[]>;
  /** Default: the IdP's entity id (both the Response and the Assertion issuer). */
  issuer?: string;
  audience?: string;
  destination?: string;
  recipient?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  /** The subject confirmation's NotOnOrAfter, when it differs from the conditions'. */
  subjectNotOnOrAfter?: Date;
  assertionId?: string;
  /** Whether the SubjectConfirmationData repeats InResponseTo (default true), or the request id it names instead. */
  subjectInResponseTo?: boolean | string;
  signAssertion?: boolean;
  signResponse?: boolean;
  /** Another key than the IdP's (a forger's). */
  signWith?: SigningKeys;
  /** The signature and digest algorithm (default SHA-256). */
  hash?: 'sha256' | 'sha1';
  /** Edits the XML after signing (tampering, signature wrapping). */
  tamper?: (xml: string) => string;
}

/** What an HTTP-Redirect AuthnRequest carries. */
export interface AuthnRequest {
  id: string;
  issuer: string | null;
  acsUrl: string | null;
  destination: string | null;
  relayState: string | null;
}

const ALGORITHMS = {
  sha256: { signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', digest: 'http://www.w3.org/2001/04/xmlenc#sha256' },
  sha1: { signature: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1', digest: 'http://www.w3.org/2000/09/xmldsig#sha1' },
};
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const newId = () => `_${randomBytes(16).toString('hex')}`;
const instant = (date: Date) => date.toISOString();

/**
 * Signs the element `localName` (the first one in the document) with an enveloped exc-c14n RSA-SHA256 (or SHA-1)
 * signature placed right after its Issuer, as identity providers do.
 */
export function signElement(
  xml: string,
  localName: 'Assertion' | 'Response',
  keys: SigningKeys,
  hash: 'sha256' | 'sha1' = 'sha256',
): string {
  const signer = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.cert,
    signatureAlgorithm: ALGORITHMS[hash].signature,
    canonicalizationAlgorithm: EXC_C14N,
  });
  const element = `//*[local-name(.)='${localName}']`;
  signer.addReference({ xpath: element, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: ALGORITHMS[hash].digest });
  signer.computeSignature(xml, { prefix: 'ds', location: { reference: `${element}/*[local-name(.)='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

/** A SAML identity provider in a test: answers AuthnRequests with signed Responses, and publishes metadata. */
export class TestIdp {
  private constructor(
    readonly entityId: string,
    readonly ssoUrl: string,
    readonly keys: SigningKeys,
  ) {}

  static async create(entityId = 'https://idp.example.test/saml/metadata'): Promise<TestIdp> {
    return new TestIdp(entityId, 'https://idp.example.test/saml/sso', await signingKeys());
  }

  /** The certificate as bare base64, as metadata and `.cer` files hold it. */
  get certificateBase64(): string {
    return this.keys.cert.replace(/-----[^-]+-----|\s+/g, '');
  }

  metadataXml({ withCertificate = true } = {}): string {
    const key = withCertificate
      ? `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${this.certificateBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`
      : '';
    return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${xmlEscape(this.entityId)}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">
    ${key}
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${this.ssoUrl}/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${this.ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
  }

  /** The AuthnRequest of a redirect to this IdP (`Location` of GET /sso/login): deflated, base64, in SAMLRequest. */
  static authnRequest(location: string): AuthnRequest {
    const url = new URL(location);
    const encoded = url.searchParams.get('SAMLRequest');
    if (!encoded) throw new Error(`no SAMLRequest in ${location}`);
    const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
    const request = new DOMParser().parseFromString(xml, 'text/xml').documentElement!;
    const issuer = request.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0];
    return {
      id: request.getAttribute('ID')!,
      issuer: issuer?.textContent ?? null,
      acsUrl: request.getAttribute('AssertionConsumerServiceURL'),
      destination: request.getAttribute('Destination'),
      relayState: url.searchParams.get('RelayState'),
    };
  }

  /** The XML of a Response to `sp`, signed as `options` say (by default: Assertion, then Response). */
  responseXml(sp: ServiceProvider, options: AnswerOptions): string {
    const now = Date.now();
    const notBefore = options.notBefore ?? new Date(now - 30_000);
    const notOnOrAfter = options.notOnOrAfter ?? new Date(now + 5 * 60_000);
    const issuer = xmlEscape(options.issuer ?? this.entityId);
    const inResponseTo = options.inResponseTo ? ` InResponseTo="${xmlEscape(options.inResponseTo)}"` : '';
    const subject = options.subjectInResponseTo;
    const subjectInResponseTo =
      typeof subject === 'string' ? ` InResponseTo="${xmlEscape(subject)}"` : subject === false ? '' : inResponseTo;
    const attributes = Object.entries(options.attributes ?? {})
      .map(([name, value]) => {
        const values = (Array.isArray(value) ? value : [value])
          .map((item) => `<saml:AttributeValue xsi:type="xs:string">${xmlEscape(item)}</saml:AttributeValue>`)
          .join('');
        return `<saml:Attribute Name="${xmlEscape(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified">${values}</saml:Attribute>`;
      })
      .join('');
    const assertion =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ID="${options.assertionId ?? newId()}" Version="2.0" IssueInstant="${instant(new Date(now))}">` +
      `<saml:Issuer>${issuer}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${xmlEscape(options.nameId)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${subjectInResponseTo} NotOnOrAfter="${instant(options.subjectNotOnOrAfter ?? notOnOrAfter)}" Recipient="${xmlEscape(options.recipient ?? sp.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${instant(notBefore)}" NotOnOrAfter="${instant(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${xmlEscape(options.audience ?? sp.entityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${instant(new Date(now))}" SessionIndex="${newId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
      '</saml:Assertion>';
    const keys = options.signWith ?? this.keys;
    let xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${instant(new Date(now))}" Destination="${xmlEscape(options.destination ?? sp.acsUrl)}"${inResponseTo}>` +
      `<saml:Issuer>${issuer}</saml:Issuer>` +
      '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
      `${options.signAssertion === false ? assertion : signElement(assertion, 'Assertion', keys, options.hash)}</samlp:Response>`;
    if (options.signResponse !== false) xml = signElement(xml, 'Response', keys, options.hash);
    return options.tamper ? options.tamper(xml) : xml;
  }

  /** The SAMLResponse form value: the Response, base64. */
  response(sp: ServiceProvider, options: AnswerOptions): string {
    return Buffer.from(this.responseXml(sp, options)).toString('base64');
  }
}
