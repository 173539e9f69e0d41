const XMLDSIG = 'http://www.w3.org/2000/09/xmldsig#';
const MORE = 'http://www.w3.org/2001/04/xmldsig-more#';
const XMLENC = 'http://www.w3.org/2001/04/xmlenc#';

/** Signature and digest algorithms accepted in responses; SHA-1 only when SSO_ALLOW_SHA1 is set. */
const ACCEPTED = {
  signature: [`${MORE}rsa-sha256`, `${MORE}rsa-sha384`, `${MORE}rsa-sha512`],
  digest: [`${XMLENC}sha256`, `${MORE}sha384`, `${XMLENC}sha512`],
};
const SHA1 = { signature: [`${XMLDSIG}rsa-sha1`], digest: [`${XMLDSIG}sha1`] };

/** The algorithms a response's signatures name (SignatureMethod, DigestMethod). */
export interface SignatureAlgorithms {
  signature: string[];
  digest: string[];
}

/** Why the algorithms are refused, or null. */
export function algorithmProblem(used: SignatureAlgorithms, allowSha1: boolean): string | null {
  for (const kind of ['signature', 'digest'] as const) {
    const accepted = allowSha1 ? [...ACCEPTED[kind], ...SHA1[kind]] : ACCEPTED[kind];
    const refused = used[kind].find((algorithm) => !accepted.includes(algorithm));
    if (refused !== undefined) {
      const sha1 = SHA1[kind].includes(refused) ? ' (SHA-1 is refused unless SSO_ALLOW_SHA1 is set)' : '';
      return `${kind} algorithm ${JSON.stringify(refused.slice(0, 100))} is not accepted${sha1}`;
    }
  }
  return null;
}
