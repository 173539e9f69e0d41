import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers/database.ts';
import { referenceData } from '../../../test/helpers/reference-data.ts';
import { startServiceProcess, waitFor, type ServiceProcess } from '../../../test/helpers/service-process.ts';

/** Short, so that the test sees a dead sync's lease expire; the heartbeat renews it well within. */
const LEASE_S = 10;
const ENV = {
  ATTACK_ENTERPRISE_SOURCE: referenceData('attack', 'enterprise-attack-18.1.json'),
  SYNC_LEASE: `${LEASE_S}s`,
  SYNC_HEARTBEAT: '2s',
};
/** The tables the ATT&CK sync writes, as its batch audit entries name them, and the rows of each it owns. */
const OWNED_ROWS: Record<string, string> = {
  tactics: 'SELECT count(*) FROM tactics',
  techniques: 'SELECT count(*) FROM techniques WHERE stix_id IS NOT NULL AND NOT is_custom',
  mitigations: 'SELECT count(*) FROM mitigations',
  threat_actors: "SELECT count(*) FROM threat_actors WHERE stix_id LIKE 'intrusion-set--%'",
  software: 'SELECT count(*) FROM software',
  technique_mitigations: "SELECT count(*) FROM technique_mitigations WHERE stix_id LIKE 'relationship--%'",
  threat_actor_techniques: "SELECT count(*) FROM threat_actor_techniques WHERE stix_id LIKE 'relationship--%'",
};

const FINISHED = ['succeeded', 'failed'];

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: pg.Client;
let dataDir: string;
const started: ServiceProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  db = new pg.Client(database.url);
  await db.connect();
  dataDir = await mkdtemp(join(tmpdir(), 'violet-sync-'));
});
afterAll(async () => {
  for (const service of started) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  await db?.end();
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const count = async (sql: string) => Number((await db.query<{ count: string }>(sql)).rows[0].count);
const runOf = async (id: string) =>
  (
    await db.query<{ status: string; error: string | null; committed: any; changes: any }>(
      'SELECT status, error, committed, changes FROM data_source_runs WHERE id = $1',
      [id],
    )
  ).rows[0];

async function start() {
  const service = await startServiceProcess({ DATABASE_URL: database.url, DATA_DIR: dataDir, ...ENV });
  started.push(service);
  return service;
}

describe('an ATT&CK sync killed with SIGKILL half-way', () => {
  it('is taken over once its lease expires, completed to the reference counts, and every write is audited and reported', async () => {
    const first = await start();
    const token = await first.login();
    const queued = await first.api('POST', '/data-sources/attack_enterprise/sync', token);
    expect(queued.status, first.output()).toBe(202);
    const interruptedId: string = queued.body.run.id;

    // Kill as soon as the techniques are committed: the links come later, in batches of their own.
    await waitFor(
      'the techniques to be committed',
      Date.now() + 120_000,
      async () => ((await count(OWNED_ROWS.techniques)) > 0 ? true : undefined),
      10,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    const partialLinks = await count(OWNED_ROWS.threat_actor_techniques);
    expect(partialLinks, 'the sync finished before it was killed: nothing to resume').toBeLessThan(4_362);
    const killed = await runOf(interruptedId);
    expect(killed.status).toBe('running');
    expect(killed.committed.techniques.created).toBe(await count(OWNED_ROWS.techniques));

    // The restarted service refuses a second sync only while the dead one's lease lasts.
    const second = await start();
    const admin = await second.login();
    const restartedAt = Date.now();
    const takeover = await waitFor(
      'a sync to be accepted',
      Date.now() + (LEASE_S + 15) * 1_000,
      async () => {
        const response = await second.api('POST', '/data-sources/attack_enterprise/sync', admin);
        if (response.status === 409) return undefined;
        return response;
      },
      500,
    );
    expect(takeover.status, JSON.stringify(takeover.body)).toBe(202);
    // At the latest once the lease has run out (the restart itself may outlast it on a loaded machine).
    expect(Date.now() - restartedAt).toBeLessThan((LEASE_S + 15) * 1_000);
    console.info(
      `killed with ${killed.committed.techniques.created} techniques and ${partialLinks} actor links; a sync accepted again ${Date.now() - killedAt} ms after the kill (restart included)`,
    );
    const completingId: string = takeover.body.run.id;
    await waitFor(
      'the completing sync',
      Date.now() + 180_000,
      async () => (FINISHED.includes((await runOf(completingId)).status) ? true : undefined),
      250,
    );

    const completing = await runOf(completingId);
    expect(completing.status, completing.error ?? '').toBe('succeeded');
    const source = (await second.api('GET', '/data-sources', admin)).body.find((row: { kind: string }) => row.kind === 'attack_enterprise');
    expect(source).toMatchObject({ status: 'succeeded', error: null });
    expect(source.item_counts).toMatchObject({
      techniques: 216,
      sub_techniques: 475,
      tactics: 14,
      threat_actors: 172,
      actor_techniques: 4362,
    });

    // The interrupted run is closed with its reason, and the completing run reports what it had written.
    const interrupted = await runOf(interruptedId);
    expect(interrupted).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Interrupted: .*took the source over/) });
    expect(completing.changes.resumed).toEqual({ run_ids: [interruptedId], committed: interrupted.committed });
    const techniqueRows = await count(OWNED_ROWS.techniques);
    expect(interrupted.committed.techniques.created + completing.changes.techniques.new).toBe(techniqueRows);

    // Every row the two runs wrote has its audit entry: the audited creations add up to the rows, table by table.
    for (const [table, sql] of Object.entries(OWNED_ROWS)) {
      const audited = await db.query<{ created: string | null }>(
        "SELECT sum((details->>'created')::int) AS created FROM audit_logs WHERE action = 'sync_attack_catalog' AND entity_type = $1",
        [table],
      );
      expect({ table, audited: Number(audited.rows[0].created) }).toEqual({ table, audited: await count(sql) });
      expect((interrupted.committed[table]?.created ?? 0) + (completing.committed[table]?.created ?? 0)).toBe(await count(sql));
    }
    const closing = await db.query(
      "SELECT details FROM audit_logs WHERE action = 'sync_data_source' AND details->>'status' = 'interrupted'",
    );
    expect(closing.rows.map((row) => row.details)).toEqual([
      expect.objectContaining({ run_id: interruptedId, completed_by: completingId, committed: interrupted.committed }),
    ]);

    // Nothing is left stuck: a further sync is accepted at once and reports nothing new.
    const again = await second.api('POST', '/data-sources/attack_enterprise/sync', admin);
    expect(again.status).toBe(202);
    await waitFor(
      'the re-sync',
      Date.now() + 120_000,
      async () => (FINISHED.includes((await runOf(again.body.run.id)).status) ? true : undefined),
      250,
    );
    const rerun = await runOf(again.body.run.id);
    expect(rerun).toMatchObject({ status: 'succeeded', committed: {} });
    expect(rerun.changes.techniques.new).toBe(0);
    expect(rerun.changes.resumed).toBeUndefined();

    second.child.kill('SIGTERM');
    expect((await second.exited)[0], second.output()).toBe(0);
  }, 420_000);
});
