import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Roles } from '../../auth/roles.ts';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import { startTestApp, useTestApp } from '../../../test/helpers/app.ts';
import { eventsSettled } from '../../../test/helpers/events.ts';
import { FILE_SERVER_ENV } from '../../../test/helpers/file-server.ts';
import { TAXII_MEDIA_TYPE } from './taxii.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/osint/${name}`, import.meta.url));

/** Fixture feeds, hostile documents and a TAXII 2.1 server with one collection of two pages, on 127.0.0.1. */
const taxiiRequests: { path: string; accept: string | undefined }[] = [];
const taxiiObject = (n: number, text: string) => ({
  type: 'report',
  spec_version: '2.1',
  id: `report--00000000-0000-4000-8000-00000000000${n}`,
  created: `2026-11-1${n}T00:00:00.000Z`,
  modified: `2026-11-1${n}T00:00:00.000Z`,
  published: `2026-11-1${n}T00:00:00.000Z`,
  name: `TAXII report ${n}`,
  description: text,
  object_refs: [],
});
/** When the collection's objects were added (microseconds, as TAXII servers write them): pages 1 and 2, then a later object. */
const ADDED = ['2026-11-11T00:00:00.000001Z', '2026-11-12T08:00:00.123456Z', '2026-11-13T09:30:00.654321Z'];
/** The objects page: from the start in two pages, or only what was added after `added_after`, with X-TAXII-Date-Added-Last. */
function taxiiObjects(query: URLSearchParams) {
  const addedAfter = query.get('added_after');
  if (addedAfter === null) {
    return query.get('next') === 'page-2'
      ? { body: { more: false, objects: [taxiiObject(2, 'Second page: T1190 by APT28.')] }, addedLast: ADDED[1] }
      : { body: { more: true, next: 'page-2', objects: [taxiiObject(1, 'First page: T1003 in use.')] }, addedLast: ADDED[0] };
  }
  if (addedAfter === ADDED[1])
    return { body: { more: false, objects: [taxiiObject(3, 'Third: T1566 in a new wave.')] }, addedLast: ADDED[2] };
  if (addedAfter === ADDED[2]) return { body: {} };
  return null;
}
function respond(
  path: string,
  query: URLSearchParams,
  accept: string | undefined,
): { status: number; body: string | Buffer; type: string; headers?: Record<string, string> } | 'stream' {
  const xml = (body: Buffer | string) => ({ status: 200, body, type: 'application/rss+xml' });
  const taxii = (body: unknown, headers: Record<string, string> = {}) =>
    accept === TAXII_MEDIA_TYPE
      ? { status: 200, body: JSON.stringify(body), type: TAXII_MEDIA_TYPE, headers }
      : { status: 406, body: '', type: 'text/plain' };
  switch (path) {
    case '/feeds/rss.xml':
      return xml(fixture('rss.xml'));
    case '/feeds/atom.xml':
      return xml(fixture('atom.xml'));
    case '/feeds/stix.json':
      return { status: 200, body: fixture('stix-bundle.json'), type: 'application/json' };
    case '/feeds/billion-laughs.xml':
      return xml(fixture('billion-laughs.xml'));
    case '/feeds/deep.xml':
      return xml(`<rss version="2.0"><channel>${'<x>'.repeat(200)}deep${'</x>'.repeat(200)}</channel></rss>`);
    case '/feeds/huge.xml':
      return 'stream';
    case '/taxii2/':
      return taxii({ title: 'Example TAXII', api_roots: ['/api1/'], default: '/api1/' });
    case '/api1/collections/':
      return taxii({ collections: [{ id: 'c-intel', title: 'Intel', can_read: true, can_write: false }] });
    case '/api1/collections/c-intel/objects/': {
      const page = taxiiObjects(query);
      if (!page) return { status: 400, body: 'unexpected added_after', type: 'text/plain' };
      return taxii(page.body, page.addedLast ? { 'X-TAXII-Date-Added-Last': page.addedLast } : {});
    }
    default:
      return { status: 404, body: 'not found', type: 'text/plain' };
  }
}

const FIFTY_MB = 50 * 1024 * 1024;
let streamed = 0;
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://feeds');
    if (url.pathname.startsWith('/taxii2') || url.pathname.startsWith('/api1')) {
      taxiiRequests.push({ path: `${url.pathname}${url.search}`, accept: req.headers.accept });
    }
    const answer = respond(url.pathname, url.searchParams, req.headers.accept);
    if (answer === 'stream') {
      // 50 MB without a content-length: the reader must stop at its cap, not buffer the whole body.
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const push = () => {
        while (streamed < FIFTY_MB) {
          streamed += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', push);
        }
        res.end();
      };
      res.on('close', () => undefined);
      push();
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.type, ...answer.headers }).end(answer.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const app = useTestApp({ ...FILE_SERVER_ENV, SOURCE_SYNC_SCHEDULES: 'false' });
let admin: string;
let lead: string;
const feeds: Record<string, string> = {};

async function technique(
  ttpId: string,
  statusGlobal: CoverageStatus = 'not_evaluated',
  extra: { revoked?: boolean; revokedByTtpId?: string } = {},
) {
  await app.services.prisma.technique.create({ data: { ttpId, name: `Technique ${ttpId}`, tactic: 'Execution', statusGlobal, ...extra } });
}
async function actor(externalId: string, name: string, aliases: string[]) {
  await app.services.prisma.threatActor.create({
    data: {
      externalId,
      name,
      aliases: [name, ...aliases],
      stixId: `intrusion-set--00000000-0000-4000-8000-0000000${externalId.slice(1)}0`,
    },
  });
}
const addFeed = async (name: string, kind: string, location: string, extra: Record<string, unknown> = {}) => {
  const response = await app.api('POST', '/osint/feeds', { token: admin, body: { name, kind, location, ...extra } });
  expect(response.status).toBe(201);
  feeds[name] = response.body.id;
  return response.body;
};
const sync = (name: string) => app.api('POST', `/osint/feeds/${feeds[name]}/sync`, { token: admin });
const items = async (query: string) => {
  const response = await app.api('GET', `/osint/items?${query}`, { token: lead });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};
const flagged = async () =>
  (await app.services.prisma.technique.findMany({ where: { reviewRequired: true }, orderBy: { ttpId: 'asc' } })).map((row) => row.ttpId);
const notices = () => app.services.prisma.notification.findMany({ where: { event: 'osint_flagged' }, orderBy: { createdAt: 'asc' } });

beforeAll(async () => {
  admin = await app.tokenFor('admin');
  lead = await app.tokenFor('blue_lead');
  await app.tokenFor('red_lead');
  for (const ttpId of ['T1059', 'T1059.001', 'T1190']) await technique(ttpId);
  await technique('T1566', 'validated');
  await technique('T1003', 'partial');
  await technique('T1086', 'not_evaluated', { revoked: true, revokedByTtpId: 'T1059.001' });
  await actor('G0007', 'APT28', ['Fancy Bear', 'Sofacy']);
  await actor('G0010', 'Turla', ['Snake']);
  await actor('G0032', 'Lazarus Group', ['HIDDEN COBRA']);
  await app.services.prisma.software.create({
    data: {
      stixId: 'malware--00000000-0000-4000-8000-000000000022',
      externalId: 'S0022',
      kind: 'malware',
      name: 'Uroburos',
      aliases: ['Uroburos', 'Snake'],
    },
  });
});

describe('OSINT feeds', () => {
  it('feeds are configured by admins only; leads read them', async () => {
    for (const role of ['red_lead', 'blue_lead', 'red_tech', 'viewer'] as const) {
      const response = await app.api('POST', '/osint/feeds', {
        token: await app.tokenFor(role),
        body: { name: 'x', kind: 'rss', location: `${base}/feeds/rss.xml` },
      });
      expect(response).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    }
    for (const role of ['viewer', 'red_tech', 'blue_tech'] as const) {
      expect((await app.api('GET', '/osint/items', { token: await app.tokenFor(role) })).status).toBe(403);
    }
    expect((await app.api('GET', '/osint/items', { token: lead })).body).toEqual({ items: [], total: 0, offset: 0, limit: 50 });
    const bad = await app.api('POST', '/osint/feeds', { token: admin, body: { name: 'Bad', kind: 'rss', location: 'feeds/rss.xml' } });
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    const collection = await app.api('POST', '/osint/feeds', {
      token: admin,
      body: { name: 'Bad', kind: 'rss', location: `${base}/feeds/rss.xml`, collection: 'c1' },
    });
    expect(collection).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  it('an RSS feed gives items linked to techniques and actors; markup and scripts are removed; links stay http(s)', async () => {
    await addFeed('Blog', 'rss', `${base}/feeds/rss.xml`);
    const run = await sync('Blog');
    expect(run).toMatchObject({
      status: 200,
      body: { status: 'succeeded', items_seen: 4, items_added: 4, flagged: 2, error: null, trigger: 'manual' },
    });
    expect(run.body.notes).toEqual(['2 items: markup removed from the title or text']);
    const page = await items(`feed_id=${feeds.Blog}`);
    expect(page.total).toBe(4);
    const byKey = Object.fromEntries(page.items.map((item: any) => [item.key, item]));
    expect(byKey['rss-1']).toMatchObject({
      title: 'Fancy Bear phishing wave uses T1566 and T1059.001',
      summary: 'APT28 delivered macros exploiting CVE-2024-12345; Mimikatz (S0002) dumped credentials.',
      mentioned_ttps: ['T1059.001', 'T1566'],
      mentioned_groups: ['G0007'],
      mentioned_software: ['S0002'],
      cves: ['CVE-2024-12345'],
      review: 'flagged',
      link: 'https://blog.example/posts/1',
      published_at: '2026-11-02T10:00:00.000Z',
      feed_name: 'Blog',
    });
    expect(byKey['rss-1'].techniques.map((link: any) => link.ttp_id)).toEqual(['T1059.001', 'T1566']);
    expect(byKey['rss-1'].actors).toEqual([{ external_id: 'G0007', name: 'APT28', mentioned: 'Fancy Bear' }]);
    expect(byKey['rss-2']).toMatchObject({
      title: 'Turla returns',
      link: null,
      mentioned_ttps: ['T1059'],
      mentioned_groups: ['G0010'],
      mentioned_software: ['S0022'],
    });
    expect(byKey['rss-2'].summary).toBe('A new Snake implant runs commands through T1059 .');
    expect(JSON.stringify(page)).not.toMatch(/<script|onerror|javascript:/i);
    expect(byKey['rss-3']).toMatchObject({ mentioned_ttps: [], mentioned_groups: [], actors: [], review: 'not_flagged' });
    expect(byKey['rss-4']).toMatchObject({ mentioned_ttps: ['T1059'], review: 'flagged' });
  });

  it('an uncovered technique mentioned twice is flagged once, and each lead is told once', async () => {
    expect(await flagged()).toEqual(['T1059', 'T1059.001']);
    await eventsSettled(app);
    const told = await notices();
    const leads = await app.services.prisma.user.findMany({ where: { role: { in: [...Roles.leads] }, isActive: true } });
    expect(told.map((notice) => notice.userId).sort()).toEqual(leads.map((user) => user.id).sort());
    expect(told[0]).toMatchObject({
      title: 'Intel feeds: 2 techniques flagged for review',
      message: '4 new feed items mention 2 techniques without validated coverage: T1059, T1059.001.',
      entityType: 'osint_feed',
      entityId: feeds.Blog,
    });
  });

  it('a second sync adds nothing and tells nobody', async () => {
    const before = (await notices()).length;
    expect((await sync('Blog')).body).toMatchObject({ status: 'succeeded', items_seen: 4, items_added: 0, flagged: 0 });
    await eventsSettled(app);
    expect((await notices()).length).toBe(before);
    expect(await app.services.prisma.osintItem.count()).toBe(4);
  });

  it('an Atom feed links names and group ids; a technique already flagged is not flagged again; a revoked id links its successor', async () => {
    const before = (await notices()).length;
    await addFeed('Advisories', 'atom', `${base}/feeds/atom.xml`);
    expect((await sync('Advisories')).body).toMatchObject({ status: 'succeeded', items_added: 2, flagged: 1 });
    const page = await items(`feed_id=${feeds.Advisories}`);
    const byKey = Object.fromEntries(page.items.map((item: any) => [item.key, item]));
    expect(byKey['urn:example:advisory:1']).toMatchObject({
      mentioned_ttps: ['T1190'],
      mentioned_groups: ['G0032'],
      cves: ['CVE-2023-0001'],
      link: 'https://advisories.example/a1',
    });
    expect(byKey['urn:example:advisory:2']).toMatchObject({ mentioned_ttps: ['T1059', 'T1086'], mentioned_groups: ['G0007'] });
    expect(byKey['urn:example:advisory:2'].techniques.map((link: any) => [link.ttp_id, link.mentioned])).toEqual([
      ['T1059', 'T1059'],
      ['T1059.001', 'T1086'],
    ]);
    expect(await flagged()).toEqual(['T1059', 'T1059.001', 'T1190']);
    await eventsSettled(app);
    const told = await notices();
    const leads = await app.services.prisma.user.count({ where: { role: { in: [...Roles.leads] }, isActive: true } });
    expect(told.length - before).toBe(leads);
    expect(told.at(-1)?.message).toBe('2 new feed items mention 1 technique without validated coverage: T1190.');
  });

  it('a STIX bundle gives an item per object, linked through its external references', async () => {
    await addFeed('CERT bundle', 'stix', `${base}/feeds/stix.json`);
    expect((await sync('CERT bundle')).body).toMatchObject({ status: 'succeeded', items_seen: 1, items_added: 1, flagged: 1 });
    const [item] = (await items(`feed_id=${feeds['CERT bundle']}`)).items;
    expect(item).toMatchObject({
      key: 'report--84e4d88f-44ea-4bcd-bbf3-b2c1c320bcb3',
      title: 'Credential theft campaign',
      mentioned_ttps: ['T1003'],
      mentioned_groups: ['G0010'],
      link: 'https://attack.mitre.org/techniques/T1003/',
      review: 'flagged',
    });
    expect((await sync('CERT bundle')).body.items_added).toBe(0);
  });

  it('a TAXII 2.1 collection is read through discovery, the API root and both pages of objects', async () => {
    await addFeed('TAXII', 'taxii', `${base}/taxii2/`, { collection: 'c-intel' });
    expect((await sync('TAXII')).body).toMatchObject({ status: 'succeeded', items_seen: 2, items_added: 2 });
    expect(taxiiRequests.map((request) => request.path)).toEqual([
      '/taxii2/',
      '/api1/collections/',
      '/api1/collections/c-intel/objects/?limit=500',
      '/api1/collections/c-intel/objects/?limit=500&next=page-2',
    ]);
    expect(taxiiRequests.every((request) => request.accept === TAXII_MEDIA_TYPE)).toBe(true);
    const page = await items(`feed_id=${feeds.TAXII}`);
    expect(page.items.map((item: any) => [item.title, item.mentioned_ttps, item.mentioned_groups])).toEqual([
      ['TAXII report 2', ['T1190'], ['G0007']],
      ['TAXII report 1', ['T1003'], []],
    ]);
    await addFeed('TAXII missing', 'taxii', `${base}/taxii2/`, { collection: 'nope' });
    expect((await sync('TAXII missing')).body).toMatchObject({
      status: 'failed',
      error: 'the TAXII API root has no readable collection nope',
    });
  });

  it('the next TAXII sync asks only for objects added after the X-TAXII-Date-Added-Last it kept, and follows the answer', async () => {
    const objectsAfter = (added: string) =>
      `/api1/collections/c-intel/objects/?${new URLSearchParams({ limit: '500', added_after: added })}`;
    const feed = async () => (await app.api('GET', `/osint/feeds/${feeds.TAXII}`, { token: lead })).body;
    expect(await feed()).toMatchObject({ added_after: ADDED[1] });

    taxiiRequests.length = 0;
    expect((await sync('TAXII')).body).toMatchObject({ status: 'succeeded', items_seen: 1, items_added: 1 });
    expect(taxiiRequests.map((request) => request.path)).toEqual(['/taxii2/', '/api1/collections/', objectsAfter(ADDED[1])]);
    expect((await items(`feed_id=${feeds.TAXII}`)).items.map((item: any) => [item.title, item.mentioned_ttps])).toEqual([
      ['TAXII report 3', ['T1566']],
      ['TAXII report 2', ['T1190']],
      ['TAXII report 1', ['T1003']],
    ]);
    expect(await feed()).toMatchObject({ added_after: ADDED[2] });

    // Nothing new: an empty answer without the header keeps the point reached.
    taxiiRequests.length = 0;
    expect((await sync('TAXII')).body).toMatchObject({ status: 'succeeded', items_seen: 0, items_added: 0 });
    expect(taxiiRequests.at(-1)?.path).toBe(objectsAfter(ADDED[2]));
    expect(await feed()).toMatchObject({ added_after: ADDED[2] });

    // Another collection (here the same one named by its title) is read from its start again.
    const moved = await app.api('PATCH', `/osint/feeds/${feeds.TAXII}`, { token: admin, body: { collection: 'Intel' } });
    expect(moved).toMatchObject({ status: 200, body: { collection: 'Intel', added_after: null } });
    taxiiRequests.length = 0;
    expect((await sync('TAXII')).body).toMatchObject({ status: 'succeeded', items_seen: 2, items_added: 0 });
    expect(taxiiRequests.slice(2).map((request) => request.path)).toEqual([
      '/api1/collections/c-intel/objects/?limit=500',
      '/api1/collections/c-intel/objects/?limit=500&next=page-2',
    ]);
    expect(await feed()).toMatchObject({ added_after: ADDED[1] });
  });

  it('hostile feeds are refused and recorded on the run in plain words, never a server error', async () => {
    const cases: [string, string, string][] = [
      ['Laughs', '/feeds/billion-laughs.xml', 'refused: the document declares a DOCTYPE or entities, which feeds must not'],
      ['Huge', '/feeds/huge.xml', 'larger than 10485760 bytes'],
      ['Deep', '/feeds/deep.xml', 'refused: elements nested deeper than 64 levels'],
      ['Gone', '/feeds/missing.xml', 'HTTP 404'],
    ];
    const before = await app.services.prisma.osintItem.count();
    for (const [name, path, reason] of cases) {
      await addFeed(name, 'rss', `${base}${path}`);
      const run = await sync(name);
      expect(run, name).toMatchObject({ status: 200, body: { status: 'failed', error: reason, items_added: 0 } });
      const feed = await app.api('GET', `/osint/feeds/${feeds[name]}`, { token: lead });
      expect(feed.body).toMatchObject({ status: 'failed', error: reason, last_run: [{ status: 'failed', error: reason }] });
    }
    expect(streamed).toBeLessThan(FIFTY_MB);
    expect(await app.services.prisma.osintItem.count()).toBe(before);
    const health = await app.api('GET', '/osint/feeds/health', { token: lead });
    const laughs = health.body.find((row: any) => row.name === 'Laughs');
    expect(laughs).toMatchObject({ status: 'failed', item_count: 0, items_added_last_run: 0, failed_runs_in_a_row: 1, error: cases[0][2] });
    const blog = health.body.find((row: any) => row.name === 'Blog');
    expect(blog).toMatchObject({
      status: 'succeeded',
      item_count: 4,
      items_added_last_run: 0,
      items_added_last7_days: 4,
      failed_runs_in_a_row: 0,
    });
  });
});

describe('OSINT reads and review', () => {
  it('filters by technique, actor (id, name or alias), date range and words, with a total; GraphQL answers the same', async () => {
    const t1059 = await items('ttp_id=T1059');
    expect(t1059.items.map((item: any) => item.key).sort()).toEqual(['rss-2', 'rss-4', 'urn:example:advisory:2']);
    expect((await app.api('GET', '/osint/techniques/T1059/items?limit=2', { token: lead })).body).toMatchObject({
      total: 3,
      offset: 0,
      limit: 2,
    });
    for (const actor of ['G0007', 'APT28', 'Fancy%20Bear', 'Sofacy']) {
      expect((await items(`actor=${actor}`)).total, actor).toBe(3);
    }
    expect((await items('search=roundup')).items.map((item: any) => item.key)).toEqual(['rss-3']);
    expect((await items('software=S0022')).items.map((item: any) => item.key)).toEqual(['rss-2']);
    expect((await items('software=S0002')).items.map((item: any) => item.key)).toEqual(['rss-1']);
    expect((await app.api('GET', '/osint/items?software=Mimikatz', { token: lead })).body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await items('from=2026-11-03T00:00:00Z&to=2026-11-04T23:59:59Z')).items.map((item: any) => item.key)).toEqual([
      'rss-3',
      'rss-2',
    ]);
    const bad = await app.api('GET', '/osint/items?ttp_id=1059', { token: lead });
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    const graphql = await app.graphql('{ osintItems(ttpId: "T1059", limit: 1) { total items { mentionedTtps } } }', {}, lead);
    expect(graphql.data.osintItems).toMatchObject({ total: 3, items: [{ mentionedTtps: expect.arrayContaining(['T1059']) }] });
  });

  it('a flagged item is reviewed or dismissed by a lead and can be reopened; other moves are invalid transitions', async () => {
    const [item] = (await items(`ttp_id=T1190&feed_id=${feeds.Advisories}`)).items;
    expect(item).toMatchObject({ review: 'flagged', valid_transitions: ['reviewed', 'dismissed'] });
    const reviewed = await app.api('POST', `/osint/items/${item.id}/review`, { token: lead });
    expect(reviewed).toMatchObject({ status: 200, body: { review: 'reviewed', valid_transitions: ['flagged'] } });
    expect(reviewed.body.reviewed_at).not.toBeNull();
    const again = await app.api('POST', `/osint/items/${item.id}/dismiss`, { token: lead });
    expect(again).toMatchObject({ status: 400, body: { code: 'INVALID_TRANSITION' } });
    const viewer = await app.api('POST', `/osint/items/${item.id}/reopen`, { token: await app.tokenFor('viewer') });
    expect(viewer.status).toBe(403);
    const reopened = await app.graphql('mutation ($id: UUID!) { reopenOsintItem(id: $id) { review reviewedAt } }', { id: item.id }, admin);
    expect(reopened.data.reopenOsintItem).toEqual({ review: 'flagged', reviewedAt: null });
    expect((await items('review=flagged')).total).toBeGreaterThan(0);
  });
});

describe('the alert rule on new intel about an uncovered technique', () => {
  it('fires once per technique, through the existing alert pipeline', async () => {
    const rule = await app.api('POST', '/alerts/rules', {
      token: admin,
      body: { name: 'Intel on gaps', rule_type: 'osint_uncovered_technique', severity: 'high', parameters: { window_days: 7 } },
    });
    expect(rule.status).toBe(201);
    const first = await app.api('POST', '/alerts/evaluate', { token: admin });
    expect(first.status).toBe(200);
    const fired = await app.services.prisma.alertInstance.findMany({ where: { ruleId: rule.body.id }, orderBy: { subject: 'asc' } });
    const ttpIds = await app.services.prisma.technique.findMany({ where: { id: { in: fired.map((alert) => alert.subject) } } });
    expect(ttpIds.map((row) => row.ttpId).sort()).toEqual(['T1003', 'T1059', 'T1059.001', 'T1190']);
    const t1059 = fired.find((alert) => alert.title.startsWith('T1059:'));
    expect(t1059).toMatchObject({
      title: 'T1059: 3 new intel items on a technique without validated coverage',
      ruleType: 'osint_uncovered_technique',
    });
    expect((await app.api('POST', '/alerts/evaluate', { token: admin })).body.fired).toBe(0);
    expect(await app.services.prisma.alertInstance.count({ where: { ruleId: rule.body.id } })).toBe(fired.length);
    await eventsSettled(app);
    expect(await app.services.prisma.notification.count({ where: { event: 'alert_fired' } })).toBeGreaterThan(0);
  });
});

describe('feed schedules', () => {
  it('a feed with a schedule gets a scheduler entry that follows its changes and its deletion', async () => {
    const scheduled = await startTestApp({ SOURCE_SYNC_SCHEDULES: 'true' });
    try {
      const token = await scheduled.tokenFor('admin');
      // The scheduler follows a feed's changes once their events are handled.
      let lastStatus: unknown;
      const entry = async (id: string) => {
        await eventsSettled(scheduled);
        const status = await scheduled.api('GET', '/system/scheduler-status', { token });
        lastStatus = status.body;
        return status.body.jobs.find((job: any) => job.id === `osint-feed:${id}`);
      };
      const created = await scheduled.api('POST', '/osint/feeds', {
        token,
        body: { name: 'Hourly', kind: 'rss', location: `${base}/feeds/rss.xml`, schedule: '15 * * * *' },
      });
      expect(created).toMatchObject({ status: 201, body: { schedule: '15 * * * *', enabled: true } });
      const first = await entry(created.body.id);
      expect(first, `the scheduler status after the feed was created: ${JSON.stringify(lastStatus)}`).toBeDefined();
      const next = new Date(first.next_run_time);
      expect(next.getUTCMinutes()).toBe(15);
      const tooOften = await scheduled.api('PATCH', `/osint/feeds/${created.body.id}`, { token, body: { schedule: '*/5 * * * *' } });
      expect(tooOften).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
      await scheduled.api('PATCH', `/osint/feeds/${created.body.id}`, { token, body: { enabled: false } });
      expect(await entry(created.body.id)).toBeUndefined();
      await scheduled.api('PATCH', `/osint/feeds/${created.body.id}`, { token, body: { enabled: true } });
      expect(await entry(created.body.id)).toBeDefined();
      expect((await scheduled.api('DELETE', `/osint/feeds/${created.body.id}`, { token })).status).toBe(204);
      expect(await entry(created.body.id)).toBeUndefined();
      expect((await scheduled.api('GET', `/osint/feeds/${created.body.id}`, { token })).status).toBe(404);
    } finally {
      await scheduled.close();
    }
  });
});
