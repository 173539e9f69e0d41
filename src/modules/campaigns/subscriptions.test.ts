import { setTimeout as sleep } from 'node:timers/promises';
import type { EventEmitter } from 'node:events';
import { createClient } from 'graphql-ws';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useTestApp } from '../../../test/helpers/app.ts';
import { campaign, createTest, team, technique, type Team } from '../../../test/helpers/test-runs.ts';

let t: Team;

const app = useTestApp();

beforeAll(async () => {
  t = await team(app);
});

interface Change {
  campaignId: string;
  change: string;
  actorId: string | null;
  campaign: { id: string; name: string; status: string } | null;
}

const busListeners = () => (app.services.bus as unknown as { local: EventEmitter }).local.listenerCount('event');

/** A viewer's `campaignChanged` stream, set up on the server before it returns; `next(n)` waits for n changes. */
async function subscribe(campaignId: string) {
  const client = createClient({
    url: `${app.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${t.viewer.token}` },
    retryAttempts: 0,
  });
  const before = busListeners();
  const received: Change[] = [];
  const errors: unknown[] = [];
  client.subscribe<{ campaignChanged: Change }>(
    {
      query: `subscription ($campaignId: UUID) {
        campaignChanged(campaignId: $campaignId) { campaignId change actorId campaign { id name status } }
      }`,
      variables: { campaignId },
    },
    {
      next: (result) => (result.errors ? errors.push(result.errors) : received.push(result.data!.campaignChanged)),
      error: (e) => errors.push(e),
      complete: () => undefined,
    },
  );
  const deadline = Date.now() + 5_000;
  while (busListeners() <= before && Date.now() < deadline) await sleep(10);
  return {
    received,
    errors,
    async next(count: number) {
      const until = Date.now() + 10_000;
      while (received.length < count && Date.now() < until) await sleep(20);
      return received;
    },
    close: () => client.dispose(),
  };
}

async function mutate(token: string, mutation: string, variables: Record<string, unknown>) {
  const result = await app.graphql(mutation, variables, token);
  expect(result.errors, mutation).toBeUndefined();
}

describe('campaignChanged', () => {
  it("streams one campaign's edits, status changes, added tests and deletion, and nothing of another campaign", async () => {
    const watched = await campaign(app, t.red_lead);
    const other = await campaign(app, t.red_lead);
    const target = await technique(app);
    const test = await createTest(app, t.red_lead, target.id);
    const stream = await subscribe(watched.id);
    try {
      await mutate(t.blue_lead.token, 'mutation ($id: UUID!) { updateCampaign(id: $id, input: { name: "Other" }) { id } }', {
        id: other.id,
      });
      await mutate(t.blue_lead.token, 'mutation ($id: UUID!) { updateCampaign(id: $id, input: { name: "Renamed" }) { id } }', {
        id: watched.id,
      });
      await stream.next(1);
      await mutate(
        t.red_lead.token,
        'mutation ($id: UUID!, $testId: UUID!) { addCampaignTest(id: $id, input: { testId: $testId }) { id } }',
        {
          id: watched.id,
          testId: test.id,
        },
      );
      await stream.next(2);
      await mutate(t.red_lead.token, 'mutation ($id: UUID!) { activateCampaign(id: $id) { id } }', { id: watched.id });
      await stream.next(3);
      await mutate(t.red_lead.token, 'mutation ($id: UUID!) { deleteCampaign(id: $id) }', { id: watched.id });
      const changes = await stream.next(4);
      expect(stream.errors).toEqual([]);
      expect(changes.map(({ change, actorId }) => [change, actorId])).toEqual([
        ['updated', t.blue_lead.id],
        ['test_added', t.red_lead.id],
        ['active', t.red_lead.id],
        ['deleted', t.red_lead.id],
      ]);
      expect(changes.every((change) => change.campaignId === watched.id)).toBe(true);
      expect(changes[0].campaign).toMatchObject({ id: watched.id, name: 'Renamed' });
      expect(changes[2].campaign).toMatchObject({ status: 'active' });
      expect(changes[3].campaign).toBeNull();
    } finally {
      await stream.close();
    }
  });
});
