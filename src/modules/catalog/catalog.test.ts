import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '../../events/types.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { setSourceLocation } from '../../../test/helpers/data-sources.ts';
import { eventsSettled } from '../../../test/helpers/events.ts';
import { FILE_SERVER_ENV, serveFiles, type FileServer } from '../../../test/helpers/file-server.ts';
import { referenceData } from '../../../test/helpers/reference-data.ts';

const DATA = referenceData('attack');
const V17 = `${DATA}/enterprise-attack-17.1.trimmed.json`;
const V18 = `${DATA}/enterprise-attack-18.1.json`;
/** The shared data README's "Sync test facts, 17.1 → 18.1". */
const NEW_IN_18 = [
  'T1036.012',
  'T1059.013',
  'T1204.005',
  'T1213.006',
  'T1518.002',
  'T1546.018',
  'T1562.013',
  'T1677',
  'T1678',
  'T1679',
  'T1680',
  'T1681',
];

type Stix = Record<string, any>;

/** The bundle as the tests read it, independently of the importer. */
async function readBundle(path: string) {
  const objects: Stix[] = JSON.parse(await readFile(path, 'utf8')).objects;
  const matrix = objects.find((object) => object.type === 'x-mitre-matrix')!;
  const tactics = objects.filter((object) => object.type === 'x-mitre-tactic');
  const byId = new Map(tactics.map((tactic) => [tactic.id, tactic]));
  const order: string[] = matrix.tactic_refs.map((ref: string) => byId.get(ref)!.x_mitre_shortname);
  const tacticName = new Map(tactics.map((tactic) => [tactic.x_mitre_shortname, tactic.name]));
  const patterns = objects.filter((object) => object.type === 'attack-pattern');
  const ttp = (object: Stix) => object.external_references.find((reference: Stix) => reference.source_name === 'mitre-attack');
  /** What the catalog keeps of an attack-pattern. */
  const stored = (object: Stix) => {
    const phases = object.kill_chain_phases
      .filter((phase: Stix) => phase.kill_chain_name === 'mitre-attack')
      .map((phase: Stix) => phase.phase_name);
    phases.sort((a: string, b: string) => order.indexOf(a) - order.indexOf(b));
    return JSON.stringify([
      ttp(object).external_id,
      ttp(object).url,
      object.name,
      object.description ?? '',
      object.x_mitre_platforms ?? [],
      phases,
      tacticName.get(phases[0]) ?? null,
      object.x_mitre_is_subtechnique ?? false,
      object.x_mitre_version ?? null,
      new Date(object.modified).toISOString(),
      object.revoked ?? false,
      object.x_mitre_deprecated ?? false,
    ]);
  };
  const active = (object: Stix) => !object.revoked && !object.x_mitre_deprecated;
  return { objects, order, tacticName, patterns, ttp, stored, active };
}

let app: TestApp;
let files: FileServer;
let admin: string;
let v17: Awaited<ReturnType<typeof readBundle>>;
let v18: Awaited<ReturnType<typeof readBundle>>;
const leads: Record<string, { id: string }> = {};
const coverageEvents: EventOf<'coverage.changed'>[] = [];
let first: { new: number; updated: number; counts: Record<string, number>; changes: Record<string, any> };
let second: { status: number; body: any };
let secondChanges: Record<string, any>;
let customId: string;
let testOnRevoked: { id: string; techniqueId: string };

const setSource = (location: string) => setSourceLocation(app, 'attack_enterprise', location);

const SYNC = 'mutation { syncTtp { message new updated counts changes } }';

async function syncOverGraphql() {
  const result = await app.graphql(SYNC, {}, admin);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data.syncTtp;
}

const latestAudit = () =>
  app.services.prisma.auditLog.findFirstOrThrow({ where: { action: 'sync_attack_catalog' }, orderBy: { timestamp: 'desc' } });

beforeAll(async () => {
  files = await serveFiles((path) => {
    const file = ({ '/17.1.json': V17, '/18.1.json': V18 } as Record<string, string>)[path];
    return file ? readFile(file) : undefined;
  });

  [app, v17, v18] = await Promise.all([
    startTestApp({ SOURCE_SYNC_SCHEDULES: 'false', ...FILE_SERVER_ENV }),
    readBundle(V17),
    readBundle(V18),
  ]);
  admin = await app.tokenFor('admin');
  app.services.bus.on('coverage.changed', (event) => void coverageEvents.push(event));
  for (const [name, options] of Object.entries({
    red: { role: 'red_lead' },
    blue: { role: 'blue_lead' },
    inactive: { role: 'blue_lead', isActive: false },
    optedOut: { role: 'red_lead' },
    admin: { role: 'admin' },
    tech: { role: 'red_tech' },
  } as const))
    leads[name] = await app.createUser(options);
  await app.services.prisma.user.update({ where: { id: leads.optedOut.id }, data: { preferences: { in_app_new_techniques: false } } });
  const custom = await app.api('POST', '/techniques', {
    token: admin,
    body: { ttp_id: 'CUSTOM-1', name: 'Home-grown', tactic: 'Execution' },
  });
  customId = custom.body.id;

  // ATT&CK 17.1 served over HTTP, through GraphQL.
  await setSource(`${files.url}/17.1.json`);
  first = await syncOverGraphql();

  const revoked = await app.services.prisma.technique.findFirstOrThrow({ where: { revoked: true }, orderBy: { ttpId: 'asc' } });
  const creator = await app.createUser({ role: 'red_lead' });
  testOnRevoked = await app.services.prisma.test.create({
    data: { id: randomUUID(), lineageId: randomUUID(), techniqueId: revoked.id, name: 'Old test', createdById: creator.id },
    select: { id: true, techniqueId: true },
  });

  // ATT&CK 18.1 read by path, through REST.
  await setSource(V18);
  second = await app.api('POST', '/system/sync-ttp', { token: admin });
  secondChanges = (await latestAudit()).details as Record<string, any>;
}, 180_000);

afterAll(async () => {
  await app?.close();
  await files?.close();
});

describe('ATT&CK Enterprise catalog sync', () => {
  it('loads 17.1 into an empty catalog with the verified counts', () => {
    expect(first.counts).toMatchObject({
      techniques: 211,
      sub_techniques: 468,
      tactics: 14,
      mitigations: 44,
      threat_actors: 166,
      actor_techniques: 4046,
      software: 0,
    });
    expect(first.changes.techniques).toMatchObject({ new: v17.patterns.length, updated: 0, unchanged: 0, conflicts: [] });
    expect(first.changes.tactics).toEqual({ new: 14, updated: 0, unchanged: 0 });
    expect(first.new).toBe(823);
  });

  it('18.1 adds exactly the 12 new techniques and updates those whose stored fields changed', () => {
    const before = new Map(v17.patterns.map((pattern) => [pattern.id, v17.stored(pattern)]));
    const added = v18.patterns
      .filter((pattern) => !before.has(pattern.id))
      .map((pattern) => v18.ttp(pattern).external_id)
      .sort();
    const changed = v18.patterns.filter((pattern) => before.has(pattern.id) && before.get(pattern.id) !== v18.stored(pattern)).length;
    expect(added).toEqual(NEW_IN_18);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ message: expect.stringContaining('12 new'), new: 12, updated: changed });
    expect(secondChanges.techniques).toMatchObject({
      new: 12,
      updated: changed,
      unchanged: v18.patterns.length - 12 - changed,
      revoked: 0,
      deprecated: 0,
      new_ids: NEW_IN_18,
      conflicts: [],
    });
  });

  it('a re-run of 18.1 reports nothing new or updated, rewrites no row, and the catalog holds the README figures', async () => {
    const stamp = async () => {
      const [techniques, actors, tactics] = await Promise.all([
        app.services.prisma.technique.aggregate({ _max: { updatedAt: true } }),
        app.services.prisma.threatActor.aggregate({ _max: { updatedAt: true } }),
        app.services.prisma.tactic.aggregate({ _max: { updatedAt: true } }),
      ]);
      return [techniques._max.updatedAt, actors._max.updatedAt, tactics._max.updatedAt];
    };
    const before = await stamp();
    const events = coverageEvents.length;
    const result = await syncOverGraphql();
    expect(result).toMatchObject({ new: 0, updated: 0 });
    expect(result.counts).toMatchObject({
      techniques: 216,
      sub_techniques: 475,
      tactics: 14,
      mitigations: 44,
      threat_actors: 172,
      actor_techniques: 4362,
      software: 784,
    });
    expect(result.counts.techniques + result.counts.sub_techniques).toBe(v18.patterns.filter(v18.active).length);
    expect(await app.services.prisma.technique.count({ where: { isCustom: false } })).toBe(v18.patterns.length);
    for (const [kind, change] of Object.entries(result.changes as Record<string, any>)) {
      expect({ kind, new: change.new, updated: change.updated }).toEqual({ kind, new: 0, updated: 0 });
    }
    expect(result.changes.actor_techniques.removed).toBe(0);
    expect(await stamp()).toEqual(before);
    expect(coverageEvents.length).toBe(events);
    expect(await app.services.prisma.auditLog.count({ where: { action: 'sync_attack_catalog', entityType: 'catalog' } })).toBe(3);
  });

  it('notifies every active lead (admins too) once per sync with new techniques, and emits coverage.changed', async () => {
    await eventsSettled(app);
    const notifications = await app.services.prisma.notification.findMany({
      where: { event: 'new_techniques' },
      orderBy: { createdAt: 'asc' },
    });
    const byUser = (id: string) => notifications.filter((notification) => notification.userId === id);
    for (const lead of [leads.red, leads.blue, leads.admin]) {
      const received = byUser(lead.id);
      expect(received).toHaveLength(2);
      expect(received[1].title).toBe('ATT&CK catalog: 12 new techniques');
      expect(received[1].message).toBe(
        'The ATT&CK catalog sync added 12 new techniques: T1036.012, T1059.013, T1204.005, T1213.006, T1518.002 and 7 more.',
      );
    }
    for (const other of [leads.inactive, leads.optedOut, leads.tech]) expect(byUser(other.id)).toEqual([]);

    const synced = coverageEvents.filter((event) => event.payload.reason === 'catalog_sync');
    expect(synced.map((event) => event.payload.techniqueIds.length)).toEqual([823, 12]);
    const added = await app.services.prisma.technique.findMany({
      where: { id: { in: synced[1].payload.techniqueIds } },
      select: { ttpId: true },
    });
    expect(added.map((technique) => technique.ttpId).sort()).toEqual(NEW_IN_18);
  });

  it('a custom technique and a test on a revoked technique survive the syncs', async () => {
    const custom = await app.services.prisma.technique.findUniqueOrThrow({ where: { id: customId } });
    expect(custom).toMatchObject({
      ttpId: 'CUSTOM-1',
      name: 'Home-grown',
      isCustom: true,
      stixId: null,
      tactic: 'Execution',
      tactics: ['execution'],
    });
    const test = await app.services.prisma.test.findUniqueOrThrow({ where: { id: testOnRevoked.id }, include: { technique: true } });
    expect(test.technique).toMatchObject({ id: testOnRevoked.techniqueId, revoked: true });
  });

  it('keeps ATT&CK software (malware and tools) with their aliases; only active ones are counted', async () => {
    const software = v18.objects.filter((object) => object.type === 'malware' || object.type === 'tool');
    expect(secondChanges.software).toEqual({ new: software.length, updated: 0, unchanged: 0 });
    expect(await app.services.prisma.software.count()).toBe(787);
    const mimikatz = await app.services.prisma.software.findFirstOrThrow({ where: { externalId: 'S0002' } });
    expect(mimikatz).toMatchObject({
      stixId: 'tool--afc079f3-c0ea-4096-b75d-3f05338b7f60',
      kind: 'tool',
      name: 'Mimikatz',
      aliases: ['Mimikatz'],
      platforms: ['Windows'],
      revoked: false,
      deprecated: false,
    });
    expect(mimikatz.description).toContain('credential dumper');
    const uroburos = await app.services.prisma.software.findFirstOrThrow({ where: { externalId: 'S0022' } });
    expect(uroburos).toMatchObject({ kind: 'malware', name: 'Uroburos', aliases: ['Uroburos', 'Snake'] });
    expect(await app.services.prisma.software.count({ where: { OR: [{ revoked: true }, { deprecated: true }] } })).toBe(3);
  });

  it('lists software to every role, filtered by kind and by name, alias or S id; GraphQL answers the same', async () => {
    const viewer = await app.tokenFor('viewer');
    const all = await app.api('GET', '/software?limit=1', { token: viewer });
    expect(all).toMatchObject({ status: 200, body: { total: 784, offset: 0, limit: 1 } });
    expect((await app.api('GET', '/software?include_deprecated=true&limit=1', { token: viewer })).body.total).toBe(787);
    const tools = v18.objects.filter((object) => object.type === 'tool' && v18.active(object)).length;
    expect((await app.api('GET', '/software?kind=tool&limit=1', { token: viewer })).body.total).toBe(tools);
    const snake = await app.api('GET', '/software?search=snake', { token: viewer });
    expect(snake.body.items.map((item: any) => [item.external_id, item.kind, item.name])).toContainEqual(['S0022', 'malware', 'Uroburos']);
    const byId = await app.api('GET', '/software?search=s0002', { token: viewer });
    expect(byId.body.items).toEqual([
      expect.objectContaining({ external_id: 'S0002', kind: 'tool', name: 'Mimikatz', aliases: ['Mimikatz'], platforms: ['Windows'] }),
    ]);
    const graphql = await app.graphql('{ software(filter: { search: "S0002" }) { total items { externalId name } } }', {}, viewer);
    expect(graphql.data.software).toEqual({ total: 1, items: [{ externalId: 'S0002', name: 'Mimikatz' }] });
    expect((await app.api('GET', '/software?kind=virus', { token: viewer })).status).toBe(400);
  });

  it('a revoked technique names its successor from the revoked-by relationships, followed down a chain of revocations', async () => {
    const byStixId = new Map(v18.patterns.map((object) => [object.id, object]));
    const revokedBy = new Map(
      v18.objects
        .filter((object) => object.type === 'relationship' && object.relationship_type === 'revoked-by')
        .filter((object) => byStixId.has(object.source_ref) && byStixId.has(object.target_ref))
        .map((object) => [object.source_ref, object.target_ref]),
    );
    const finalSuccessor = (stixId: string): string => {
      const next = revokedBy.get(stixId)!;
      return byStixId.get(next)!.revoked ? finalSuccessor(next) : v18.ttp(byStixId.get(next)!).external_id;
    };
    const expected = v18.patterns
      .filter((object) => object.revoked)
      .map((object) => [v18.ttp(object).external_id, finalSuccessor(object.id)])
      .sort();
    const stored = await app.services.prisma.technique.findMany({
      where: { revoked: true, stixId: { not: null } },
      select: { ttpId: true, revokedByTtpId: true },
      orderBy: { ttpId: 'asc' },
    });
    expect(stored.map((row) => [row.ttpId, row.revokedByTtpId])).toEqual(expected);
    expect(expected).toHaveLength(132);
    expect(Object.fromEntries(expected)).toMatchObject({ T1086: 'T1059.001', T1150: 'T1647', T1073: 'T1574.001' });
    expect(await app.services.prisma.technique.count({ where: { revoked: false, revokedByTtpId: { not: null } } })).toBe(0);

    const viewer = await app.tokenFor('viewer');
    const rest = await app.api('GET', '/techniques/T1086', { token: viewer });
    expect(rest.body).toMatchObject({ ttp_id: 'T1086', revoked: true, revoked_by_ttp_id: 'T1059.001' });
    const graphql = await app.graphql('{ technique(ttpId: "T1059.001") { revokedByTtpId } }', {}, viewer);
    expect(graphql.data.technique).toEqual({ revokedByTtpId: null });
  });

  it('stores tactics in matrix order, technique fields, mitigations with their description, and actors', async () => {
    const viewer = await app.tokenFor('viewer');
    const tactics = await app.graphql('{ tactics { externalId shortName name matrixOrder } }', {}, viewer);
    expect(tactics.data.tactics.map((tactic: any) => tactic.shortName)).toEqual(v18.order);
    expect(tactics.data.tactics[6]).toEqual({
      externalId: 'TA0005',
      shortName: 'defense-evasion',
      name: 'Defense Evasion',
      matrixOrder: 7,
    });

    const injection = await app.api('GET', '/techniques/T1055', { token: viewer });
    expect(injection.body).toMatchObject({
      ttp_id: 'T1055',
      name: 'Process Injection',
      tactic: 'Privilege Escalation',
      tactics: ['privilege-escalation', 'defense-evasion'],
      is_subtechnique: false,
      parent_ttp_id: null,
      url: 'https://attack.mitre.org/techniques/T1055',
      revoked: false,
      deprecated: false,
      is_custom: false,
    });
    const source = v18.patterns.find((pattern) => v18.ttp(pattern).external_id === 'T1055')!;
    expect(injection.body).toMatchObject({
      attack_version: source.x_mitre_version,
      attack_modified: new Date(source.modified).toISOString(),
      stix_id: source.id,
    });

    const query = `{ technique(ttpId: "T1055") { subTechniques { ttpId parent { ttpId } } mitigations { description mitigation { externalId name } } } }`;
    const { data } = await app.graphql(query, {}, viewer);
    const subTechniques = v18.patterns.filter((pattern) => v18.active(pattern) && v18.ttp(pattern).external_id.startsWith('T1055.'));
    expect(data.technique.subTechniques.map((sub: any) => sub.ttpId)).toEqual(
      subTechniques.map((pattern) => v18.ttp(pattern).external_id).sort(),
    );
    expect(data.technique.subTechniques[0].parent).toEqual({ ttpId: 'T1055' });
    const mitigates = v18.objects.filter(
      (object) => object.type === 'relationship' && object.relationship_type === 'mitigates' && object.target_ref === source.id,
    );
    expect(data.technique.mitigations).toHaveLength(mitigates.length);
    expect(data.technique.mitigations.map((link: any) => link.description).sort()).toEqual(
      mitigates.map((object) => object.description).sort(),
    );

    const apt28 = await app.services.prisma.threatActor.findFirstOrThrow({
      where: { name: 'APT28' },
      include: { _count: { select: { techniques: true } } },
    });
    const apt28Stix = v18.objects.find((object) => object.type === 'intrusion-set' && object.name === 'APT28')!;
    const uses = v18.objects.filter(
      (object) =>
        object.type === 'relationship' &&
        object.relationship_type === 'uses' &&
        object.source_ref === apt28Stix.id &&
        object.target_ref.startsWith('attack-pattern--'),
    );
    expect(apt28).toMatchObject({
      externalId: 'G0007',
      country: 'RU',
      aliases: apt28Stix.aliases,
      revoked: false,
      deprecated: false,
      motivation: null,
    });
    expect(apt28._count.techniques).toBe(uses.length);
    const countries = await app.services.prisma.threatActor.findMany({
      where: { name: { in: ['APT38', 'APT1', 'OilRig', 'FIN7', 'Nomadic Octopus'] } },
      select: { name: true, country: true },
    });
    expect(Object.fromEntries(countries.map((actor) => [actor.name, actor.country]))).toEqual({
      APT38: 'KP',
      APT1: 'CN',
      OilRig: 'IR',
      FIN7: null,
      'Nomadic Octopus': null,
    });
  });

  it('the tactic filter matches any tactic of a technique by display name, short name or id, case-insensitively', async () => {
    const viewer = await app.tokenFor('viewer');
    const list = async (query: string) =>
      (await app.api('GET', `/techniques?${query}`, { token: viewer })).body.map((technique: any) => technique.ttp_id as string);
    const withPhase = (phase: string, all = false) =>
      v18.patterns
        .filter((pattern) => (all || v18.active(pattern)) && pattern.kill_chain_phases.some((p: Stix) => p.phase_name === phase))
        .map((pattern) => v18.ttp(pattern).external_id)
        .sort();
    const expected = withPhase('defense-evasion');
    for (const tactic of ['Defense%20Evasion', 'defense-evasion', 'TA0005', 'ta0005', 'DEFENSE%20EVASION']) {
      expect(await list(`tactic=${tactic}`)).toEqual(expected);
    }
    expect(expected).toContain('T1055'); // primary tactic Privilege Escalation
    expect(await list('tactic=defense-evasion&include_deprecated=true')).toEqual(withPhase('defense-evasion', true));

    const created = await app.api('POST', '/techniques', {
      token: admin,
      body: { ttp_id: 'CUSTOM-2', name: 'Hide', tactic: 'defense-evasion' },
    });
    expect(created.body).toMatchObject({ tactic: 'Defense Evasion', tactics: ['defense-evasion'], is_custom: true });
    expect(await list('tactic=TA0005')).toEqual([...expected, 'CUSTOM-2'].sort());

    const windows = v18.patterns.filter((pattern) => v18.active(pattern) && pattern.x_mitre_platforms?.includes('Windows')).length;
    expect(await list('platform=windows')).toHaveLength(windows);
    expect(await list('platform=WINDOWS')).toEqual(await list('platform=Windows'));
  });

  it('sync-ttp is for admins; an unreadable source or a file that is not a bundle answers 502', async () => {
    for (const role of ['red_lead', 'blue_lead', 'viewer'] as const) {
      const token = await app.tokenFor(role);
      expect(await app.api('POST', '/system/sync-ttp', { token })).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
      const graphql = await app.graphql('mutation { syncTtp { new } }', {}, token);
      expect(graphql.errors?.[0].extensions.code).toBe('FORBIDDEN');
    }
    await setSource(`${files.url}/missing.json`);
    expect(await app.api('POST', '/system/sync-ttp', { token: admin })).toMatchObject({
      status: 502,
      body: { code: 'SOURCE_UNAVAILABLE' },
    });
    await setSource(`${DATA}/attack-stix-data-index.json`);
    const notBundle = await app.api('POST', '/system/sync-ttp', { token: admin });
    expect(notBundle).toMatchObject({
      status: 502,
      body: { code: 'SOURCE_UNAVAILABLE', detail: expect.stringContaining('not a STIX bundle') },
    });
    await app.services.prisma.dataSource.delete({ where: { kind: 'attack_enterprise' } });
    expect(await app.api('POST', '/system/sync-ttp', { token: admin })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('an ATT&CK id held by a custom technique is skipped and reported as a conflict', async () => {
    const prisma = app.services.prisma;
    await prisma.technique.delete({ where: { ttpId: 'T1681' } });
    const custom = await app.api('POST', '/techniques', { token: admin, body: { ttp_id: 'T1681', name: 'Ours', tactic: 'Impact' } });
    expect(custom.status).toBe(201);
    await setSource(V18);
    const result = await syncOverGraphql();
    expect(result.changes.techniques).toMatchObject({ new: 0, updated: 0, conflicts: ['T1681'] });
    expect(await prisma.technique.findUniqueOrThrow({ where: { ttpId: 'T1681' } })).toMatchObject({
      name: 'Ours',
      isCustom: true,
      stixId: null,
    });
    expect(await prisma.threatActorTechnique.count({ where: { technique: { ttpId: 'T1681' } } })).toBe(0);
  });
});
