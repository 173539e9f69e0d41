/** The REST calls the app needs where GraphQL has no equivalent: the session cookie is set and cleared only there. */
export class RequestFailed extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly status: number,
  ) {
    super(message);
  }
}

async function send(path: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(`/api/v1${path}`, { ...init, credentials: 'same-origin' });
  const body = (await response.json().catch(() => ({}))) as { detail?: string; code?: string };
  if (!response.ok) throw new RequestFailed(body.detail ?? `The server answered ${response.status}`, body.code, response.status);
  return body;
}

export const signIn = (username: string, password: string) =>
  send('/auth/login', { method: 'POST', body: new URLSearchParams({ username, password }) });

export const changePassword = (currentPassword: string, newPassword: string) =>
  send('/auth/change-password', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ current_password: currentPassword, new_password: newPassword }),
  });

export const signOut = () => send('/auth/logout', { method: 'POST' });
