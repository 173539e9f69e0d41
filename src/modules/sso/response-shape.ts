import { xmlShapeProblem } from './xml-limits.ts';

const BASE64 = /^[A-Za-z0-9+/\s]+={0,2}\s*$/;

/**
 * Why a posted SAMLResponse is refused before any worker parses it, or null: not base64, larger than `maxBytes`
 * once decoded, or of a shape no identity provider sends (`xmlShapeProblem`). Linear in the form's size.
 */
export function responseShapeProblem(samlResponse: string, maxBytes: number): string | null {
  if (!BASE64.test(samlResponse)) return 'the SAMLResponse is not base64';
  const size = Buffer.byteLength(samlResponse, 'base64');
  if (size > maxBytes) return `the response is larger than ${maxBytes} bytes (SSO_MAX_RESPONSE_SIZE)`;
  return xmlShapeProblem(Buffer.from(samlResponse, 'base64').toString('utf8'));
}
