import { performance } from 'node:perf_hooks';
import { setNewest } from '../bounded-map.ts';
import type { EventBus } from '../events/bus.ts';
import type { Role } from './roles.ts';

/** What a session token's request needs of its user, and whether the token was revoked (src/auth/authenticate.ts). */
export interface SessionRow {
  id: string | null;
  username: string;
  role: Role;
  isActive: boolean;
  mustChangePassword: boolean;
  sessionVersion: number;
  revoked: boolean;
}

/** Sessions remembered at once: about 200 bytes each. */
export const SESSION_CACHE_ENTRIES = 10_000;

/**
 * The session rows read for tokens in the last SESSION_CACHE milliseconds (one second by default), so that a client's
 * burst of requests reads its user and revocation once: a test's detail then costs one statement instead of two.
 *
 * Changes made through the service take effect at once all the same: a logout and every change to a user (role,
 * deactivation, password, the command-line reset) announce themselves on the event bus after their commit, in this
 * process at once and in the others sharing its Redis within Redis' delivery, and the rows of that user are forgotten.
 * While this process cannot hear the others (its Redis subscriber is down), it reads every session and keeps none.
 * A change written to the database by hand is seen at the latest SESSION_CACHE later.
 * A read under way while an announcement arrives is used but not kept: it may predate the change.
 */
export class SessionCache {
  private readonly rows = new Map<string, { row: SessionRow; until: number }>();
  /** Counts the announcements heard: a row read across one is not kept. */
  private heard = 0;
  private readonly stopListening: Array<() => void>;

  constructor(
    private readonly ttlMs: number,
    private readonly bus: EventBus,
  ) {
    this.stopListening = [
      bus.on('session.ended', (event) => this.forgetUser(event.payload.userId)),
      bus.on('user.changed', (event) => this.forgetUser(event.payload.userId)),
    ];
  }

  /** The session row of token `jti`: remembered, or read with `read` (and remembered). */
  async get(jti: string, read: () => Promise<SessionRow>): Promise<SessionRow> {
    if (!this.bus.hearsOthers()) {
      this.rows.clear();
      return read();
    }
    const known = this.rows.get(jti);
    if (known && known.until > performance.now()) return known.row;
    const heardBefore = this.heard;
    const row = await read();
    if (this.ttlMs > 0 && this.heard === heardBefore && this.bus.hearsOthers()) {
      setNewest(this.rows, jti, { row, until: performance.now() + this.ttlMs }, SESSION_CACHE_ENTRIES);
    }
    return row;
  }

  private forgetUser(userId: string): void {
    this.heard++;
    for (const [jti, { row }] of this.rows) if (row.id === userId) this.rows.delete(jti);
  }

  dispose(): void {
    for (const stop of this.stopListening) stop();
    this.rows.clear();
  }
}
