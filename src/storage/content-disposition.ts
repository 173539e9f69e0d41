import contentDisposition from 'content-disposition';

/**
 * `attachment` with the exact UTF-8 name (RFC 6266 / RFC 8187) and a plain-ASCII fallback name, so the header
 * stays 7-bit for every client and proxy.
 */
export const attachmentDisposition = (fileName: string): string =>
  contentDisposition(fileName, { type: 'attachment', fallback: fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_') });
