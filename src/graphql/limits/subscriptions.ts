import type { GraphQLError } from 'graphql';
import { LIMIT_CODES, limitGraphqlError, QueryLimitError } from './errors.ts';

export interface SubscriptionLimits {
  perSocket: number;
  perUser: number;
  /** The summed cost of one user's live operations, across its sockets (so also of each socket). */
  maxCost: number;
}

interface Holder {
  count: number;
  cost: number;
}

/**
 * Caps on live graphql-ws operations: per socket, per user across sockets (anonymous sockets count per client
 * address), and their summed cost per user, so that one caller's subscriptions together cost no more than one
 * operation within the limits. A refused subscription gets 429 TOO_MANY_SUBSCRIPTIONS and nothing else changes.
 */
export class SubscriptionCaps {
  private readonly ownerOf = new WeakMap<object, string>();
  private readonly live = new WeakMap<object, Map<string, number>>();
  private readonly byOwner = new Map<string, Holder>();

  constructor(private readonly limits: SubscriptionLimits) {}

  /** Who holds the socket's operations: its signed-in user, else its client address. */
  connect(socket: object, userId: string | null, clientAddress: string): void {
    this.ownerOf.set(socket, userId ? `user:${userId}` : `client:${clientAddress}`);
  }

  signedIn(socket: object): boolean {
    return this.ownerOf.get(socket)?.startsWith('user:') ?? false;
  }

  /** Reserves a place for operation `id` of `socket`, or says why not. */
  admit(socket: object, id: string, cost: number): GraphQLError | null {
    const owner = this.ownerOf.get(socket) ?? 'unknown';
    const mine = this.live.get(socket) ?? new Map<string, number>();
    const held = this.byOwner.get(owner) ?? { count: 0, cost: 0 };
    const refusal =
      mine.size >= this.limits.perSocket
        ? `This connection already has ${this.limits.perSocket} live operations`
        : held.count >= this.limits.perUser
          ? `You already have ${this.limits.perUser} live operations`
          : held.cost + cost > this.limits.maxCost
            ? `Your live operations would cost ${held.cost + cost}, more than the limit of ${this.limits.maxCost}`
            : null;
    if (refusal) {
      const { perSocket, perUser, maxCost } = this.limits;
      const extra = { max_per_socket: perSocket, max_per_user: perUser, max_cost: maxCost };
      return limitGraphqlError(new QueryLimitError(LIMIT_CODES.subscriptions, `${refusal}: complete some first`, extra, 429));
    }
    this.live.set(socket, mine.set(id, cost));
    this.byOwner.set(owner, { count: held.count + 1, cost: held.cost + cost });
    return null;
  }

  /** Frees the place of operation `id` (it completed or failed); nothing when it held none. */
  release(socket: object, id: string): void {
    const mine = this.live.get(socket);
    const cost = mine?.get(id);
    if (cost === undefined) return;
    mine!.delete(id);
    const owner = this.ownerOf.get(socket) ?? 'unknown';
    const held = this.byOwner.get(owner)!;
    if (held.count <= 1) this.byOwner.delete(owner);
    else this.byOwner.set(owner, { count: held.count - 1, cost: held.cost - cost });
  }

  /** Frees every place of a closed socket. */
  releaseAll(socket: object): void {
    for (const id of [...(this.live.get(socket)?.keys() ?? [])]) this.release(socket, id);
  }
}
