import { DOMParser, onErrorStopParsing } from '@xmldom/xmldom';
import xpath from 'xpath';

export const NS = {
  md: 'urn:oasis:names:tc:SAML:2.0:metadata',
  samlp: 'urn:oasis:names:tc:SAML:2.0:protocol',
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

const selectNs = xpath.useNamespaces(NS);

/**
 * Parses XML that a client or an identity provider sent. A document type declaration is refused outright:
 * SAML messages and metadata never need one, and it is how entity-expansion attacks begin.
 */
export function parseXml(text: string): Document | null {
  if (/<!DOCTYPE/i.test(text)) return null;
  try {
    const document = new DOMParser({ onError: onErrorStopParsing }).parseFromString(text, 'text/xml');
    return document.documentElement ? (document as unknown as Document) : null;
  } catch {
    return null;
  }
}

/** The elements `expression` selects from `node`, with the SAML prefixes of `NS`. */
export function elements(expression: string, node: Node): Element[] {
  const found = selectNs(expression, node);
  return Array.isArray(found) ? found.filter((item): item is Element => xpath.isElement(item)) : [];
}

/** The trimmed text of the first element `expression` selects, or null. */
export function textOf(expression: string, node: Node): string | null {
  const text = elements(expression, node)[0]?.textContent?.trim();
  return text ? text : null;
}

export function attributeOf(element: Element | undefined, name: string): string | null {
  return element?.getAttribute(name) || null;
}
