/** A refused download: the API's words, and the input field it names (snake_case), if any. */
export class DownloadFailed extends Error {
  constructor(
    message: string,
    readonly field: string | null,
  ) {
    super(message);
  }
}

export interface Progress {
  received: number;
  /** Content-Length, when the server sent one. */
  total: number | null;
}

/** The file name of a Content-Disposition header (RFC 6266: filename* first), else the fallback. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const encoded = disposition?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (encoded) return decodeURIComponent(encoded);
  return disposition?.match(/filename="([^"]+)"/i)?.[1] ?? fallback;
}

/**
 * Fetches a REST download with the session cookie, reporting bytes as they arrive, and hands the file to the
 * browser as a download. An error answer becomes a DownloadFailed with the API's `detail`.
 */
export async function download(path: string, fallbackName: string, onProgress: (progress: Progress) => void) {
  const response = await fetch(`/api/v1${path}`, { credentials: 'same-origin' });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { detail?: string; field?: string | null };
    throw new DownloadFailed(body.detail ?? `The server answered ${response.status}`, body.field ?? null);
  }
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress({ received, total });
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress({ received, total });
  }
  const name = fileNameOf(response.headers.get('content-disposition'), fallbackName);
  const file = new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? 'application/octet-stream' });
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { name, size: received };
}
