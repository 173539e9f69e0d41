/** Every domain event, by name. Payloads carry ids and small facts, never secrets. */
export interface DomainEventPayloads {
  'notification.created': { notificationId: string; userId: string };
  'notification.read': { userId: string; notificationIds: string[] | 'all' };
  'technique.changed': { techniqueId: string; ttpId: string; change: 'created' | 'updated' | 'reviewed' };
  'coverage.changed': { techniqueIds: string[]; reason: string };
  'user.changed': { userId: string; change: 'created' | 'updated' | 'deactivated' | 'password_changed' };
  'api_key.changed': { apiKeyId: string; userId: string; change: 'created' | 'revoked' };
}

export type DomainEventType = keyof DomainEventPayloads;

export type DomainEvent = {
  [K in DomainEventType]: { type: K; payload: DomainEventPayloads[K]; occurredAt: string; actorId: string | null };
}[DomainEventType];

export type EventOf<K extends DomainEventType> = Extract<DomainEvent, { type: K }>;
