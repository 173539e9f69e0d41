import { X509Certificate } from 'node:crypto';

export interface Certificate {
  pem: string;
  /** SHA-256, as colon-separated hex. */
  fingerprint: string;
  expiresAt: Date;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([^-]*)-----END CERTIFICATE-----/g;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Reads one or more PEM certificates, or one bare base64 certificate as metadata and `.cer` downloads hold it.
 * Null when any part is not an X.509 certificate.
 */
export function readCertificates(text: string): Certificate[] | null {
  const bodies = [...text.matchAll(PEM_BLOCK)].map(([, body]) => body);
  if (!bodies.length) {
    if (text.includes('-----')) return null;
    bodies.push(text);
  }
  const certificates = new Map<string, Certificate>();
  for (const body of bodies) {
    const base64 = body.replace(/\s+/g, '');
    if (!BASE64.test(base64)) return null;
    try {
      const certificate = new X509Certificate(Buffer.from(base64, 'base64'));
      const { fingerprint256: fingerprint } = certificate;
      certificates.set(fingerprint, { pem: certificate.toString(), fingerprint, expiresAt: new Date(certificate.validTo) });
    } catch {
      return null;
    }
  }
  return [...certificates.values()];
}

/** The PEM blocks of a stored certificate text. */
export const pemsOf = (stored: string): string[] => (readCertificates(stored) ?? []).map((certificate) => certificate.pem);
