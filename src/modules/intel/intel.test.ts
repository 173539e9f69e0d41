import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Roles } from '../../auth/roles.ts';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import { importAttackEnterprise } from '../catalog/importer.ts';
import { intelJobs } from './jobs.ts';
import { startTestApp, type TestApp, useTestApp } from '../../../test/helpers/app.ts';
import { eventsSettled } from '../../../test/helpers/events.ts';
import { countQueries } from '../../../test/helpers/queries.ts';
import { referenceData } from '../../../test/helpers/reference-data.ts';

let admin: string;
const techniques: Record<string, string> = {};
const actors: Record<string, string> = {};

async function technique(ttpId: string, statusGlobal: CoverageStatus = 'not_evaluated') {
  const row = await app.services.prisma.technique.create({
    data: { ttpId, name: `Technique ${ttpId}`, tactic: 'Execution', statusGlobal },
  });
  techniques[ttpId] = row.id;
}

async function actor(name: string, extra: { deprecated?: boolean } = {}) {
  const row = await app.services.prisma.threatActor.create({
    data: { name, stixId: `intrusion-set--${randomUUID()}`, aliases: [name], ...extra },
  });
  actors[name] = row.id;
}

/** What a catalog sync does when the framework reports new `uses` relationships. */
async function addUses(pairs: [actor: string, ttpId: string][]) {
  await app.services.prisma.threatActorTechnique.createMany({
    data: pairs.map(([name, ttpId]) => ({
      stixId: `relationship--${randomUUID()}`,
      actorId: actors[name],
      techniqueId: techniques[ttpId],
      procedure: `${name} used ${ttpId}`,
    })),
  });
}

const scan = (token = admin) => app.api('POST', '/system/run-intel-scan', { token });
const flagged = async () =>
  (
    await app.services.prisma.technique.findMany({ where: { reviewRequired: true }, orderBy: { ttpId: 'asc' }, select: { ttpId: true } })
  ).map((row) => row.ttpId);

const app = useTestApp();

beforeAll(async () => {
  admin = await app.tokenFor('admin');
  for (const ttpId of ['T1001', 'T1002', 'T1003', 'T1004']) await technique(ttpId);
  await technique('T1005', 'validated');
  await technique('T1006', 'partial');
  for (const name of ['Alpha', 'Bravo', 'Charlie']) await actor(name);
  await actor('Retired', { deprecated: true });
});

describe('intel scan', () => {
  it('only admins may run it, through REST and GraphQL', async () => {
    for (const role of ['red_lead', 'blue_lead', 'red_tech', 'viewer'] as const) {
      expect(await scan(await app.tokenFor(role))).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    }
    expect((await app.api('POST', '/system/run-intel-scan')).status).toBe(401);
    const lead = await app.graphql('mutation { runIntelScan { newItems } }', {}, await app.tokenFor('blue_lead'));
    expect(lead.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(await app.services.prisma.intelScan.count()).toBe(0);
  });

  it('a scan before any technique use is known learns nothing and stays a baseline', async () => {
    const first = await scan();
    expect(first).toMatchObject({ status: 200, body: { new_items: 0, baseline: true } });
    expect(first.body.message).toMatch(/^Baseline recorded: 0 known technique uses/);
  });

  it('the first scan that sees uses is the baseline: it marks them scanned and reports nothing', async () => {
    await addUses([
      ['Alpha', 'T1001'],
      ['Alpha', 'T1005'],
      ['Bravo', 'T1002'],
    ]);
    const events: unknown[] = [];
    const off = app.services.bus.on('intel.scan_completed', (event) => void events.push(event.payload));
    const baseline = await scan();
    off();
    expect(baseline).toMatchObject({
      status: 200,
      body: {
        new_items: 0,
        baseline: true,
        message: 'Baseline recorded: 3 known technique uses; later scans report what appears after this one',
      },
    });
    expect(await app.services.prisma.threatActorTechnique.count({ where: { scannedAt: null } })).toBe(0);
    expect(await app.services.prisma.intelFinding.count()).toBe(0);
    expect(await flagged()).toEqual([]);
    const row = await app.services.prisma.intelScan.findFirstOrThrow({ orderBy: { startedAt: 'desc' } });
    expect(row).toMatchObject({ baseline: true, newItems: 0 });
    expect(row.finishedAt).not.toBeNull();
    expect(events).toEqual([{ scanId: row.id, newItems: 0, actors: 0, techniques: 0, flagged: 0 }]);
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({ where: { action: 'run_intel_scan', entityId: row.id } });
    expect(audit).toMatchObject({ entityType: 'intel_scan', details: { baseline: true, new_items: 0, scanned_uses: 3 } });
    await eventsSettled(app);
    expect(await app.services.prisma.notification.count({ where: { event: 'intel_findings' } })).toBe(0);
  });

  it('a later scan turns new uses on techniques not validated into findings, flags them and notifies each lead once', async () => {
    const redLead = await app.createUser({ role: 'red_lead' });
    const blueLead = await app.createUser({ role: 'blue_lead' });
    const quietLead = await app.createUser({ role: 'red_lead' });
    await app.services.prisma.user.update({ where: { id: quietLead.id }, data: { preferences: { in_app_intel_findings: false } } });
    const formerLead = await app.createUser({ role: 'blue_lead', isActive: false });
    const technician = await app.createUser({ role: 'red_tech' });
    await addUses([
      ['Bravo', 'T1001'],
      ['Charlie', 'T1001'],
      ['Charlie', 'T1003'],
      ['Charlie', 'T1005'],
      ['Charlie', 'T1006'],
      ['Retired', 'T1004'],
    ]);
    const events: any[] = [];
    const off = app.services.bus.on('intel.scan_completed', (event) => void events.push(event.payload));
    const result = await scan();
    off();
    expect(result).toMatchObject({ status: 200, body: { new_items: 4, baseline: false } });
    expect(result.body.message).toBe('4 new intel items: 2 threat actors newly seen using 3 techniques not yet validated');

    const row = await app.services.prisma.intelScan.findFirstOrThrow({
      where: { baseline: false },
      include: { findings: { include: { actor: true, technique: true } } },
    });
    expect(row.newItems).toBe(4);
    expect(row.findings.map((finding) => `${finding.actor.name}/${finding.technique.ttpId}`).sort()).toEqual([
      'Bravo/T1001',
      'Charlie/T1001',
      'Charlie/T1003',
      'Charlie/T1006',
    ]);
    expect(await flagged()).toEqual(['T1001', 'T1003', 'T1006']);
    expect(await app.services.prisma.threatActorTechnique.count({ where: { scannedAt: null } })).toBe(0);
    expect(events).toEqual([{ scanId: row.id, newItems: 4, actors: 2, techniques: 3, flagged: 3 }]);

    await eventsSettled(app);
    const notifications = await app.services.prisma.notification.findMany({ where: { event: 'intel_findings' } });
    const leads = await app.services.prisma.user.findMany({
      where: { role: { in: [...Roles.leads] }, isActive: true, id: { not: quietLead.id } },
    });
    expect(leads.map((lead) => lead.id)).toEqual(expect.arrayContaining([redLead.id, blueLead.id]));
    expect(notifications.map((notification) => notification.userId).sort()).toEqual(leads.map((lead) => lead.id).sort());
    expect(notifications[0]).toMatchObject({
      entityType: 'intel_scan',
      entityId: row.id,
      title: 'Intel scan: 4 new technique uses by threat actors',
      message:
        '4 new technique uses by 2 threat actors on 3 techniques not yet validated: Charlie (3), Bravo (1). 3 techniques newly flagged for review.',
    });
    for (const user of [quietLead, formerLead, technician]) {
      expect(await app.services.prisma.notification.count({ where: { userId: user.id } })).toBe(0);
    }
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({ where: { action: 'run_intel_scan', entityId: row.id } });
    expect(audit).toMatchObject({
      username: expect.stringMatching(/^admin_/),
      details: { baseline: false, new_items: 4, scanned_uses: 6, actors: 2, techniques: 3, flagged_techniques: 3 },
    });
  });

  it('an immediate re-run reports nothing and notifies nobody', async () => {
    const notificationsBefore = await app.services.prisma.notification.count();
    const again = await scan();
    expect(again).toMatchObject({ status: 200, body: { new_items: 0, baseline: false, message: 'No new intel items' } });
    await eventsSettled(app);
    expect(await app.services.prisma.intelFinding.count()).toBe(4);
    expect(await app.services.prisma.notification.count()).toBe(notificationsBefore);
  });

  it('a technique validated since its last use is not flagged by new uses of it', async () => {
    await app.services.prisma.technique.update({ where: { id: techniques.T1002 }, data: { statusGlobal: 'validated' } });
    await addUses([['Charlie', 'T1002']]);
    expect((await scan()).body.new_items).toBe(0);
    expect(await flagged()).not.toContain('T1002');
  });

  it('two concurrent scans count each new use once', async () => {
    await addUses([
      ['Alpha', 'T1002'],
      ['Alpha', 'T1003'],
      ['Alpha', 'T1004'],
      ['Bravo', 'T1003'],
      ['Bravo', 'T1004'],
    ]);
    const findingsBefore = await app.services.prisma.intelFinding.count();
    const [rest, graphql] = await Promise.all([scan(), app.graphql('mutation { runIntelScan { newItems baseline } }', {}, admin)]);
    const counts = [rest.body.new_items, graphql.data.runIntelScan.newItems].sort();
    expect(counts).toEqual([0, 4]);
    expect(graphql.data.runIntelScan.baseline).toBe(false);
    expect(await app.services.prisma.intelFinding.count()).toBe(findingsBefore + 4);
  });

  it('runIntelScan in GraphQL answers the scan record; intelFindings pages the findings, newest first', async () => {
    await addUses([['Bravo', 'T1006']]);
    const run = await app.graphql(
      'mutation { runIntelScan { message newItems baseline scan { id baseline newItems finishedAt } } }',
      {},
      admin,
    );
    expect(run.data.runIntelScan).toMatchObject({
      message: '1 new intel item: 1 threat actor newly seen using 1 technique not yet validated',
      newItems: 1,
      baseline: false,
    });
    expect(run.data.runIntelScan.scan).toMatchObject({ baseline: false, newItems: 1 });
    const scanId = run.data.runIntelScan.scan.id;

    const viewer = await app.tokenFor('viewer');
    const query = `query ($offset: Int, $limit: Int) {
      intelFindings(offset: $offset, limit: $limit) {
        total offset limit items { id scan { id } actor { name } technique { ttpId reviewRequired } use { procedure ttpId } }
      }
    }`;
    const first = await app.graphql(query, { limit: 2 }, viewer);
    expect(first.data.intelFindings).toMatchObject({ total: 9, offset: 0, limit: 2 });
    expect(first.data.intelFindings.items[0]).toMatchObject({
      scan: { id: scanId },
      actor: { name: 'Bravo' },
      technique: { ttpId: 'T1006', reviewRequired: true },
      use: { procedure: 'Bravo used T1006', ttpId: 'T1006' },
    });
    const rest = await app.graphql(query, { offset: 2, limit: 50 }, viewer);
    expect(rest.data.intelFindings.items).toHaveLength(7);
    const all = [...first.data.intelFindings.items, ...rest.data.intelFindings.items];
    expect(new Set(all.map((item: any) => item.id)).size).toBe(9);
    expect(all.map((item: any) => `${item.actor.name}/${item.technique.ttpId}`)).toEqual([
      'Bravo/T1006',
      'Alpha/T1003',
      'Bravo/T1003',
      'Alpha/T1004',
      'Bravo/T1004',
      'Bravo/T1001',
      'Charlie/T1001',
      'Charlie/T1003',
      'Charlie/T1006',
    ]);

    for (const [args, field] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: 201 }, 'limit'],
      [{ offset: -1 }, 'offset'],
    ] as const) {
      const bad = await app.graphql(query, args, viewer);
      expect(bad.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
    expect((await app.graphql('{ intelFindings { total } }')).errors?.[0].extensions?.code).toBe('NOT_AUTHENTICATED');
    expect((await app.api('GET', '/intel/findings', { token: viewer })).status).toBe(404);
  });

  it('a scan of thousands of new uses is a fixed number of statements', async () => {
    const ttpIds = Array.from({ length: 90 }, (_, index) => `T7${String(index).padStart(3, '0')}`);
    await app.services.prisma.technique.createMany({
      data: ttpIds.map((ttpId, index) => ({ ttpId, name: ttpId, statusGlobal: index % 10 === 0 ? 'validated' : 'not_evaluated' })),
    });
    const rows = await app.services.prisma.technique.findMany({ where: { ttpId: { in: ttpIds } } });
    const names = Array.from({ length: 50 }, (_, index) => `Bulk ${index}`);
    await app.services.prisma.threatActor.createMany({ data: names.map((name) => ({ name, stixId: `intrusion-set--${randomUUID()}` })) });
    const bulkActors = await app.services.prisma.threatActor.findMany({ where: { name: { in: names } } });
    await app.services.prisma.threatActorTechnique.createMany({
      data: bulkActors.flatMap((bulkActor) =>
        rows.map((row) => ({ stixId: `relationship--${randomUUID()}`, actorId: bulkActor.id, techniqueId: row.id })),
      ),
    });
    let result: any;
    const statements = await countQueries(async () => (result = await scan()));
    expect(result.body.new_items).toBe(50 * 81);
    expect(statements).toBeLessThan(40);
    expect(await app.services.prisma.technique.count({ where: { ttpId: { in: ttpIds }, reviewRequired: true } })).toBe(81);
  });

  it('the intel-scan job runs every six hours on the intel queue and scans as the system', async () => {
    const [job] = intelJobs;
    expect(job).toMatchObject({ name: 'intel-scan', queue: 'intel', repeat: { pattern: '0 */6 * * *', tz: 'UTC' } });
    const status = await app.api('GET', '/system/scheduler-status', { token: admin });
    const scheduled = status.body.jobs.find((entry: any) => entry.id === 'intel-scan');
    expect(scheduled).toBeDefined();
    const next = new Date(scheduled.next_run_time);
    expect([next.getUTCHours() % 6, next.getUTCMinutes(), next.getUTCSeconds()]).toEqual([0, 0, 0]);

    await addUses([['Alpha', 'T1006']]);
    const outcome = await job.run({}, app.services);
    expect(outcome).toMatchObject({ baseline: false, newItems: 1 });
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({
      where: { action: 'run_intel_scan' },
      orderBy: { timestamp: 'desc' },
    });
    expect(audit).toMatchObject({ userId: null, username: 'system', details: { new_items: 1 } });
  });
});

describe('intel scan over a real catalog sync', () => {
  const ATTACK = referenceData('attack');
  let catalogApp: TestApp;

  interface StixObject {
    id: string;
    type: string;
    revoked?: boolean;
    x_mitre_deprecated?: boolean;
    relationship_type?: string;
    source_ref?: string;
    target_ref?: string;
    external_references?: { source_name: string; external_id?: string }[];
  }

  const attackId = (object: StixObject) =>
    object.external_references!.find((reference) => reference.source_name === 'mitre-attack')!.external_id!;

  /** Active intrusion-set `uses` attack-pattern relationships of a bundle, by STIX id, and the active groups. */
  function readBundle(file: string) {
    const objects: StixObject[] = JSON.parse(readFileSync(`${ATTACK}/${file}`, 'utf8')).objects;
    const byId = new Map(objects.map((object) => [object.id, object]));
    const active = (object?: StixObject) => !!object && !object.revoked && !object.x_mitre_deprecated;
    const uses = new Map<string, { group: string; ttpId: string }>();
    for (const object of objects) {
      if (object.type !== 'relationship' || object.relationship_type !== 'uses' || !active(object)) continue;
      const [source, target] = [byId.get(object.source_ref!), byId.get(object.target_ref!)];
      if (source?.type !== 'intrusion-set' || target?.type !== 'attack-pattern' || !active(source) || !active(target)) continue;
      uses.set(object.id, { group: attackId(source), ttpId: attackId(target) });
    }
    const groups = objects.filter((object) => object.type === 'intrusion-set' && active(object)).length;
    return { uses, groups };
  }

  const sync = (file: string) =>
    importAttackEnterprise({
      services: catalogApp.services,
      location: `${ATTACK}/${file}`,
      actor: SYSTEM_ACTOR,
      log: catalogApp.services.log,
    });

  beforeAll(async () => {
    catalogApp = await startTestApp();
  });
  afterAll(() => catalogApp.close());

  it('after a baseline on ATT&CK 17.1, the scan after the 18.1 sync reports exactly the uses 18.1 added on techniques not validated', async () => {
    const before = readBundle('enterprise-attack-17.1.trimmed.json').uses;
    const { uses: after, groups } = readBundle('enterprise-attack-18.1.json');
    const added = [...after].map(([stixId, use]) => [stixId, use.ttpId] as const).filter(([stixId]) => !before.has(stixId));
    const adminToken = await catalogApp.tokenFor('admin');

    await sync('enterprise-attack-17.1.trimmed.json');
    expect(await catalogApp.services.prisma.threatActorTechnique.count()).toBe(before.size);
    const baseline = await catalogApp.api('POST', '/system/run-intel-scan', { token: adminToken });
    expect(baseline.body).toMatchObject({
      new_items: 0,
      baseline: true,
      message: `Baseline recorded: ${before.size} known technique uses; later scans report what appears after this one`,
    });

    // The team has validated a few techniques that 18.1 gives new users: those uses are not findings.
    const known = await catalogApp.services.prisma.technique.findMany({
      where: { ttpId: { in: added.map(([, ttpId]) => ttpId) } },
      orderBy: { ttpId: 'asc' },
      take: 5,
    });
    const validated = known.map((row) => row.ttpId);
    await catalogApp.services.prisma.technique.updateMany({ where: { ttpId: { in: validated } }, data: { statusGlobal: 'validated' } });
    const expected = added.filter(([, ttpId]) => !validated.includes(ttpId));
    expect(expected.length).toBeLessThan(added.length);

    await sync('enterprise-attack-18.1.json');
    expect(await catalogApp.services.prisma.threatActorTechnique.count()).toBe(after.size);
    const found = await catalogApp.api('POST', '/system/run-intel-scan', { token: adminToken });
    expect(found.body).toMatchObject({ new_items: expected.length, baseline: false });
    const findings = await catalogApp.services.prisma.intelFinding.findMany({ select: { actorTechnique: { select: { stixId: true } } } });
    expect(findings.map((finding) => finding.actorTechnique.stixId).sort()).toEqual(expected.map(([stixId]) => stixId).sort());
    const flaggedIds = await catalogApp.services.prisma.technique.findMany({ where: { reviewRequired: true }, select: { ttpId: true } });
    expect(flaggedIds.map((row) => row.ttpId).sort()).toEqual([...new Set(expected.map(([, ttpId]) => ttpId))].sort());

    await sync('enterprise-attack-18.1.json');
    expect((await catalogApp.api('POST', '/system/run-intel-scan', { token: adminToken })).body.new_items).toBe(0);

    const viewer = await catalogApp.tokenFor('viewer');
    expect((await catalogApp.api('GET', '/threat-actors?limit=1', { token: viewer })).body.total).toBe(groups);
    const apt28 = await catalogApp.api('GET', '/threat-actors/G0007', { token: viewer });
    const apt28Uses = [...after.values()].filter((use) => use.group === 'G0007').map((use) => use.ttpId);
    expect(apt28.body).toMatchObject({ external_id: 'G0007', name: 'APT28', technique_count: apt28Uses.length });
    expect(apt28.body.techniques.map((mapping: any) => mapping.ttp_id)).toEqual(apt28Uses.sort());
  }, 180_000);
});
