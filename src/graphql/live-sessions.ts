import type { IncomingHttpHeaders } from 'node:http';
import { CloseCode } from 'graphql-ws';
import type { WebSocket } from 'ws';
import { authenticate, credentialOf } from '../auth/authenticate.ts';
import type { Role } from '../auth/roles.ts';
import type { Services } from '../services.ts';

/** graphql-ws close code when the connection's session is over (logout, expiry, password, deactivation): sign in again. */
export const SESSION_ENDED = CloseCode.Unauthorized;
/** graphql-ws close code when the user's role changed: reconnect, and subscriptions run under the new role. */
export const ACCESS_CHANGED = CloseCode.Forbidden;

/** setTimeout's longest delay; longer token lifetimes are waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface LiveSocket {
  socket: WebSocket;
  credential: string;
  userId: string;
  role: Role;
  expiry?: NodeJS.Timeout;
}

/** The credential of a graphql-ws connection: `authorization` in connectionParams, else the upgrade's headers. */
export function connectionCredential(
  connectionParams: Readonly<Record<string, unknown>> | undefined,
  headers: IncomingHttpHeaders,
): string | null {
  const fromParams = connectionParams?.authorization ?? connectionParams?.Authorization;
  return typeof fromParams === 'string' ? fromParams.replace(/^Bearer\s+/i, '') : credentialOf(headers);
}

/**
 * The signed-in WebSocket connections of this process. A subscription keeps running on the credential its
 * connection was opened with, so when a session ends (logout, deactivation, password change or reset, a revoked
 * API key, expiry) or a role changes, the connections of that user are checked again and closed. The domain
 * events arrive from every process through the event bus, so a logout on one API process closes the sockets
 * held by another.
 */
export class LiveSessions {
  private readonly byUser = new Map<string, Set<LiveSocket>>();
  private readonly stopListening: Array<() => void>;
  /** Counts the events heard, so a connection authenticated while one arrived is checked once more. */
  private eventsHeard = 0;

  constructor(private readonly services: Services) {
    const { bus } = services;
    const recheck = (userId: string) => {
      this.eventsHeard++;
      return this.recheck(userId);
    };
    this.stopListening = [
      bus.on('session.ended', (event) => recheck(event.payload.userId)),
      bus.on('user.changed', (event) => recheck(event.payload.userId)),
      bus.on('api_key.changed', (event) => (event.payload.change === 'revoked' ? recheck(event.payload.userId) : undefined)),
    ];
  }

  /**
   * Follows a connection that signed in with `credential` and returns its user id; anonymous or refused credentials
   * are not followed (null).
   */
  async track(socket: WebSocket, credential: string | null): Promise<string | null> {
    if (!credential) return null;
    const heardBefore = this.eventsHeard;
    const { principal } = await authenticate(this.services, credential, { fresh: true });
    if (!principal || socket.readyState !== socket.OPEN) return null;
    const live: LiveSocket = { socket, credential, userId: principal.userId, role: principal.role };
    const sockets = this.byUser.get(live.userId) ?? new Set<LiveSocket>();
    this.byUser.set(live.userId, sockets.add(live));
    socket.once('close', () => this.forget(live));
    if (principal.expiresAt) this.closeAtExpiry(live, principal.expiresAt.getTime());
    if (this.eventsHeard !== heardBefore) await this.recheck(live.userId);
    return live.userId;
  }

  /** Closes the user's connections whose credential no longer signs in, or whose role changed. */
  private async recheck(userId: string): Promise<void> {
    for (const live of [...(this.byUser.get(userId) ?? [])]) {
      const { principal, failure } = await authenticate(this.services, live.credential, { fresh: true });
      if (!principal) this.close(live, SESSION_ENDED, failure?.message ?? 'Session ended');
      else if (principal.role !== live.role) this.close(live, ACCESS_CHANGED, 'Role changed: reconnect');
    }
  }

  private closeAtExpiry(live: LiveSocket, expiresAt: number): void {
    const remaining = expiresAt - Date.now();
    if (remaining <= 0) {
      this.close(live, SESSION_ENDED, 'Token has expired');
      return;
    }
    live.expiry = setTimeout(() => this.closeAtExpiry(live, expiresAt), Math.min(remaining, MAX_TIMER_MS));
    live.expiry.unref();
  }

  private close(live: LiveSocket, code: number, reason: string): void {
    this.forget(live);
    this.services.log.info({ userId: live.userId, code, reason }, 'live connection closed');
    live.socket.close(code, reason);
  }

  private forget(live: LiveSocket): void {
    clearTimeout(live.expiry);
    const sockets = this.byUser.get(live.userId);
    sockets?.delete(live);
    if (sockets?.size === 0) this.byUser.delete(live.userId);
  }

  dispose(): void {
    for (const stop of this.stopListening) stop();
    for (const sockets of this.byUser.values()) for (const live of sockets) clearTimeout(live.expiry);
    this.byUser.clear();
  }
}
