/** Sends one evidence file through the REST multipart route, reporting upload progress from 0 to 1. */
export function uploadEvidence(testId: string, team: string, file: File, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/v1/tests/${encodeURIComponent(testId)}/evidence?team=${encodeURIComponent(team)}`);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) return resolve();
      let detail = `The server answered ${request.status}`;
      try {
        const body = JSON.parse(request.responseText) as { detail?: unknown };
        if (typeof body.detail === 'string') detail = body.detail;
      } catch {}
      reject(new Error(detail));
    });
    request.addEventListener('error', () => reject(new Error('The upload failed: the connection was lost')));
    const form = new FormData();
    form.append('file', file);
    request.send(form);
  });
}
