/**
 * The shape a SAML Response may have. Real ones hold one or two signatures (Response, Assertion), nest about ten
 * elements deep and declare a dozen namespaces; the limits leave room for every identity provider seen, and
 * refuse the documents whose verification costs grow with their count of signatures or nesting.
 */
export const XML_LIMITS = { signatures: 4, depth: 32, namespaceDeclarations: 64 } as const;

const NAMESPACE_DECLARATION = /(?:^|\s)xmlns(?::[^\s=]+)?\s*=/g;

/** The end of the start tag opened at `from` (its `>` outside quoted attribute values), or -1. */
function tagEnd(xml: string, from: number): number {
  let quote = '';
  for (let index = from; index < xml.length; index++) {
    const character = xml[index];
    if (quote) {
      if (character === quote) quote = '';
    } else if (character === '"' || character === "'") quote = character;
    else if (character === '>') return index;
  }
  return -1;
}

/**
 * Why `xml` is refused before any parser or signature check sees it, or null. One pass over the text, counting
 * signature elements (any prefix), nesting depth and namespace declarations; document type and entity
 * declarations are refused outright (SAML never needs them; entity expansion starts there).
 */
export function xmlShapeProblem(xml: string): string | null {
  let depth = 0;
  let signatures = 0;
  let namespaces = 0;
  for (let at = xml.indexOf('<'); at !== -1; at = xml.indexOf('<', at)) {
    const skip = [
      ['<!--', '-->'],
      ['<![CDATA[', ']]>'],
      ['<?', '?>'],
    ].find(([open]) => xml.startsWith(open, at));
    if (skip) {
      const end = xml.indexOf(skip[1], at + skip[0].length);
      if (end === -1) return 'the response is not well-formed XML';
      at = end + skip[1].length;
      continue;
    }
    if (xml.startsWith('<!', at)) return 'the response holds a document type or entity declaration';
    const end = tagEnd(xml, at + 1);
    if (end === -1) return 'the response is not well-formed XML';
    const tag = xml.slice(at + 1, end);
    at = end + 1;
    if (tag.startsWith('/')) {
      depth--;
      continue;
    }
    const name = /^[^\s/>]+/.exec(tag)?.[0] ?? '';
    if (name.slice(name.indexOf(':') + 1) === 'Signature' && ++signatures > XML_LIMITS.signatures)
      return `the response has more than ${XML_LIMITS.signatures} signature elements`;
    namespaces += tag.match(NAMESPACE_DECLARATION)?.length ?? 0;
    if (namespaces > XML_LIMITS.namespaceDeclarations)
      return `the response declares more than ${XML_LIMITS.namespaceDeclarations} namespaces`;
    if (!tag.endsWith('/') && ++depth > XML_LIMITS.depth) return `the response nests elements more than ${XML_LIMITS.depth} deep`;
  }
  return null;
}
