import type { SignatureAlgorithms } from './algorithms.ts';
import { attributeOf, elements, NS, parseXml, textOf } from './xml.ts';

/** What the (possibly unsigned) Response element says about itself, read before node-saml checks it. */
export interface ResponseEnvelope {
  /** The Response carries its own signature: it is then checked too, not only the assertion's. */
  signed: boolean;
  destination: string | null;
  issuer: string | null;
  inResponseTo: string | null;
  /** The algorithms of every signature in the document. */
  algorithms: SignatureAlgorithms;
}

/** The envelope of a base64 SAMLResponse (checked by `responseShapeProblem`), or null when it is not a SAML protocol Response. */
export function readResponseEnvelope(samlResponse: string): ResponseEnvelope | null {
  const document = parseXml(Buffer.from(samlResponse, 'base64').toString('utf8'));
  const root = document?.documentElement;
  if (root?.localName !== 'Response' || root.namespaceURI !== NS.samlp) return null;
  return {
    signed: elements('ds:Signature', root).length > 0,
    destination: attributeOf(root, 'Destination'),
    issuer: textOf('saml:Issuer', root),
    inResponseTo: attributeOf(root, 'InResponseTo'),
    algorithms: {
      signature: elements('//ds:Signature/ds:SignedInfo/ds:SignatureMethod', root).map((method) => method.getAttribute('Algorithm') ?? ''),
      digest: elements('//ds:Signature/ds:SignedInfo/ds:Reference/ds:DigestMethod', root).map(
        (method) => method.getAttribute('Algorithm') ?? '',
      ),
    },
  };
}

/** The facts this service reads from an assertion whose signature node-saml has verified. */
export interface AssertionFacts {
  id: string | null;
  issuer: string | null;
  nameId: string | null;
  recipients: string[];
  /** Every NotOnOrAfter of the assertion (conditions and subject confirmations). */
  notOnOrAfter: Date[];
  attributes: Map<string, string[]>;
}

export function readAssertion(xml: string): AssertionFacts | null {
  const assertion = parseXml(xml)?.documentElement;
  if (assertion?.localName !== 'Assertion' || assertion.namespaceURI !== NS.saml) return null;
  const confirmations = elements('saml:Subject/saml:SubjectConfirmation/saml:SubjectConfirmationData', assertion);
  const limits = [...elements('saml:Conditions', assertion), ...confirmations]
    .map((element) => attributeOf(element, 'NotOnOrAfter'))
    .filter((value): value is string => value !== null)
    .map((value) => new Date(value))
    .filter((date) => !Number.isNaN(date.getTime()));
  const attributes = new Map<string, string[]>();
  for (const attribute of elements('saml:AttributeStatement/saml:Attribute', assertion)) {
    const name = attribute.getAttribute('Name');
    if (!name) continue;
    const values = elements('saml:AttributeValue', attribute).map((value) => (value.textContent ?? '').trim());
    attributes.set(name, [...(attributes.get(name) ?? []), ...values.filter(Boolean)]);
  }
  return {
    id: attributeOf(assertion, 'ID'),
    issuer: textOf('saml:Issuer', assertion),
    nameId: textOf('saml:Subject/saml:NameID', assertion),
    recipients: confirmations.map((data) => attributeOf(data, 'Recipient')).filter((value): value is string => value !== null),
    notOnOrAfter: limits,
    attributes,
  };
}
