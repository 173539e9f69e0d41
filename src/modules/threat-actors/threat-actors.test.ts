import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { countQueries } from '../../../test/helpers/queries.ts';

let viewer: string;
const ids: Record<string, string> = {};

async function technique(
  ttpId: string,
  name: string,
  tactic: string,
  statusGlobal: 'not_evaluated' | 'validated' | 'partial' = 'not_evaluated',
) {
  const row = await app.services.prisma.technique.create({
    data: { ttpId, name, tactic, statusGlobal, stixId: `attack-pattern--${randomUUID()}` },
  });
  ids[ttpId] = row.id;
}

async function actor(data: {
  externalId: string;
  name: string;
  aliases?: string[];
  description?: string;
  country?: string;
  motivation?: string;
  motivations?: string[];
  revoked?: boolean;
  deprecated?: boolean;
  uses?: Record<string, string>;
}) {
  const { uses = {}, ...fields } = data;
  const row = await app.services.prisma.threatActor.create({
    data: {
      ...fields,
      stixId: `intrusion-set--${randomUUID()}`,
      techniques: {
        create: Object.entries(uses).map(([ttpId, procedure]) => ({
          stixId: `relationship--${randomUUID()}`,
          techniqueId: ids[ttpId],
          procedure,
        })),
      },
    },
  });
  ids[data.externalId] = row.id;
}

const app = useTestApp();

beforeAll(async () => {
  viewer = await app.tokenFor('viewer');
  await technique('T1566', 'Phishing', 'Initial Access');
  await technique('T1059', 'Command and Scripting Interpreter', 'Execution', 'validated');
  await technique('T1059.001', 'PowerShell', 'Execution', 'partial');
  await technique('T1003', 'OS Credential Dumping', 'Credential Access');
  await actor({
    externalId: 'G0007',
    name: 'APT28',
    aliases: ['APT28', 'Fancy Bear', 'Sofacy', 'STRONTIUM'],
    description: 'A threat group attributed to the GRU.',
    country: 'RU',
    motivation: 'espionage',
    motivations: ['espionage'],
    uses: { T1566: 'Sent spearphishing e-mails.', 'T1059.001': 'Ran PowerShell downloaders.', T1003: 'Dumped LSASS memory.' },
  });
  await actor({
    externalId: 'G0032',
    name: 'Lazarus Group',
    aliases: ['Lazarus Group', 'HIDDEN COBRA', 'Labyrinth Chollima'],
    description: 'A state-sponsored group behind bank heists.',
    country: 'KP',
    motivation: 'financial-gain',
    motivations: ['financial-gain', 'espionage'],
    uses: { T1059: 'Used cmd.exe for discovery.' },
  });
  await actor({
    externalId: 'G0046',
    name: 'FIN7',
    aliases: ['FIN7', 'Carbon Spider'],
    description: 'A financially motivated group.',
    motivation: 'financial-gain',
    motivations: ['financial-gain'],
    uses: { T1566: 'Phishing with malicious documents.' },
  });
  await actor({ externalId: 'G0099', name: 'Dormant Bear', aliases: ['Dormant Bear'], country: 'RU', deprecated: true });
  await actor({ externalId: 'G0098', name: 'Merged Group', aliases: ['Merged Group'], country: 'RU', revoked: true });
});

const names = (body: any) => body.items.map((item: any) => item.name);

describe('GET /threat-actors', () => {
  it('lists active actors by name with the page envelope, technique counts and no revoked or deprecated actors', async () => {
    const list = await app.api('GET', '/threat-actors', { token: viewer });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 3, offset: 0, limit: 50 });
    expect(names(list.body)).toEqual(['APT28', 'FIN7', 'Lazarus Group']);
    expect(list.body.items[0]).toEqual({
      id: ids.G0007,
      external_id: 'G0007',
      name: 'APT28',
      aliases: ['APT28', 'Fancy Bear', 'Sofacy', 'STRONTIUM'],
      motivation: 'espionage',
      country: 'RU',
      technique_count: 3,
      revoked: false,
      deprecated: false,
    });
    expect(list.body.items[2]).toMatchObject({ external_id: 'G0032', country: 'KP', technique_count: 1 });
  });

  it('include_deprecated=true adds the revoked and deprecated actors', async () => {
    const list = await app.api('GET', '/threat-actors?include_deprecated=true', { token: viewer });
    expect(list.body.total).toBe(5);
    expect(names(list.body)).toEqual(['APT28', 'Dormant Bear', 'FIN7', 'Lazarus Group', 'Merged Group']);
    expect(list.body.items.find((item: any) => item.name === 'Merged Group')).toMatchObject({ revoked: true, deprecated: false });
    const russian = await app.api('GET', '/threat-actors?country=RU&include_deprecated=true', { token: viewer });
    expect(names(russian.body)).toEqual(['APT28', 'Dormant Bear', 'Merged Group']);
  });

  it('filters by country code (any case), motivation (primary or secondary) and search', async () => {
    const get = async (query: string) => names((await app.api('GET', `/threat-actors?${query}`, { token: viewer })).body);
    expect(await get('country=ru')).toEqual(['APT28']);
    expect(await get('country=KP')).toEqual(['Lazarus Group']);
    expect(await get('country=us')).toEqual([]);
    expect(await get('motivation=financial-gain')).toEqual(['FIN7', 'Lazarus Group']);
    expect(await get('motivation=Espionage')).toEqual(['APT28', 'Lazarus Group']);
    expect(await get('motivation=espionage&country=KP')).toEqual(['Lazarus Group']);
    expect(await get('search=fancy')).toEqual(['APT28']);
    expect(await get('search=cobra')).toEqual(['Lazarus Group']);
    expect(await get('search=g0046')).toEqual(['FIN7']);
    expect(await get('search=heists')).toEqual(['Lazarus Group']);
    expect(await get('search=fin')).toEqual(['FIN7']);
    expect(await get('search=100%25')).toEqual([]);
    expect(await get('search=_')).toEqual([]);
  });

  it('pages with offset and limit, and total counts every match', async () => {
    const first = await app.api('GET', '/threat-actors?limit=2', { token: viewer });
    expect(first.body).toMatchObject({ total: 3, offset: 0, limit: 2 });
    expect(names(first.body)).toEqual(['APT28', 'FIN7']);
    const second = await app.api('GET', '/threat-actors?limit=2&offset=2', { token: viewer });
    expect(second.body).toMatchObject({ total: 3, offset: 2, limit: 2 });
    expect(names(second.body)).toEqual(['Lazarus Group']);
    expect((await app.api('GET', '/threat-actors?limit=200', { token: viewer })).body.limit).toBe(200);
  });

  it('refuses bad query values with 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['limit=201', 'limit'],
      ['limit=0', 'limit'],
      ['offset=-1', 'offset'],
      ['limit=ten', 'limit'],
      ['country=Russia', 'country'],
      ['country=R1', 'country'],
      ['include_deprecated=maybe', 'include_deprecated'],
    ];
    for (const [query, field] of cases) {
      const response = await app.api('GET', `/threat-actors?${query}`, { token: viewer });
      expect(response, query).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field } });
    }
  });

  it('asks for a signed-in caller', async () => {
    expect((await app.api('GET', '/threat-actors')).status).toBe(401);
    expect((await app.api('GET', `/threat-actors/${ids.G0007}`)).status).toBe(401);
  });
});

describe('GET /threat-actors/{id}', () => {
  const expectedTechniques = [
    {
      technique_id: '',
      ttp_id: 'T1003',
      name: 'OS Credential Dumping',
      tactic: 'Credential Access',
      status_global: 'not_evaluated',
      procedure: 'Dumped LSASS memory.',
    },
    {
      technique_id: '',
      ttp_id: 'T1059.001',
      name: 'PowerShell',
      tactic: 'Execution',
      status_global: 'partial',
      procedure: 'Ran PowerShell downloaders.',
    },
    {
      technique_id: '',
      ttp_id: 'T1566',
      name: 'Phishing',
      tactic: 'Initial Access',
      status_global: 'not_evaluated',
      procedure: 'Sent spearphishing e-mails.',
    },
  ];

  it('answers the detail by uuid with the technique mappings ordered by ttp id', async () => {
    const detail = await app.api('GET', `/threat-actors/${ids.G0007}`, { token: await app.tokenFor('red_tech') });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: ids.G0007,
      external_id: 'G0007',
      name: 'APT28',
      description: 'A threat group attributed to the GRU.',
      motivations: ['espionage'],
      country: 'RU',
      technique_count: 3,
      revoked: false,
    });
    expect(detail.body.stix_id).toMatch(/^intrusion-set--/);
    expect(detail.body.techniques).toEqual(expectedTechniques.map((mapping) => ({ ...mapping, technique_id: ids[mapping.ttp_id] })));
  });

  it('answers the same detail by group id, in any case', async () => {
    const byUuid = await app.api('GET', `/threat-actors/${ids.G0007}`, { token: viewer });
    for (const key of ['G0007', 'g0007']) {
      const byGroup = await app.api('GET', `/threat-actors/${key}`, { token: viewer });
      expect(byGroup).toMatchObject({ status: 200, body: byUuid.body });
    }
    expect((await app.api('GET', '/threat-actors/G0099', { token: viewer })).body).toMatchObject({
      name: 'Dormant Bear',
      deprecated: true,
      techniques: [],
    });
  });

  it('unknown ids answer 404 and ids of neither form 400', async () => {
    expect(await app.api('GET', `/threat-actors/${randomUUID()}`, { token: viewer })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await app.api('GET', '/threat-actors/G9999', { token: viewer })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await app.api('GET', '/threat-actors/APT28', { token: viewer })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'id' },
    });
  });
});

describe('threat actors in GraphQL', () => {
  it('threatActors takes the same filter and pagination as REST', async () => {
    const result = await app.graphql(
      `query ($filter: ThreatActorFilter, $limit: Int) {
        threatActors(filter: $filter, limit: $limit) { total offset limit items { externalId name techniqueCount techniques { ttpId procedure technique { name } } } }
      }`,
      { filter: { motivation: 'financial-gain' }, limit: 1 },
      viewer,
    );
    expect(result.data).toEqual({
      threatActors: {
        total: 2,
        offset: 0,
        limit: 1,
        items: [
          {
            externalId: 'G0046',
            name: 'FIN7',
            techniqueCount: 1,
            techniques: [{ ttpId: 'T1566', procedure: 'Phishing with malicious documents.', technique: { name: 'Phishing' } }],
          },
        ],
      },
    });
    const bad = await app.graphql('{ threatActors(filter: { country: "Russia" }) { total } }', {}, viewer);
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'country' });
  });

  it('threatActor answers by uuid or group id; unknown ones are NOT_FOUND', async () => {
    const byGroup = await app.graphql(
      '{ threatActor(id: "G0032") { id name country motivations techniques { ttpId statusGlobal actor { name } } } }',
      {},
      viewer,
    );
    expect(byGroup.data.threatActor).toEqual({
      id: ids.G0032,
      name: 'Lazarus Group',
      country: 'KP',
      motivations: ['financial-gain', 'espionage'],
      techniques: [{ ttpId: 'T1059', statusGlobal: 'validated', actor: { name: 'Lazarus Group' } }],
    });
    const missing = await app.graphql(`{ threatActor(id: "${randomUUID()}") { id } }`, {}, viewer);
    expect(missing.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const anonymous = await app.graphql('{ threatActor(id: "G0032") { id } }');
    expect(anonymous.errors?.[0].extensions?.code).toBe('NOT_AUTHENTICATED');
  });

  it('Technique.threatActors lists the active actors using the technique, by name', async () => {
    await actor({ externalId: 'G0097', name: 'Retired Phisher', country: 'RU', deprecated: true, uses: { T1566: 'Old campaign.' } });
    const result = await app.graphql('{ technique(ttpId: "T1566") { ttpId threatActors { externalId name } } }', {}, viewer);
    expect(result.data.technique).toEqual({
      ttpId: 'T1566',
      threatActors: [
        { externalId: 'G0007', name: 'APT28' },
        { externalId: 'G0046', name: 'FIN7' },
      ],
    });
  });

  it('loads a page of actors with their techniques in a number of queries that does not grow with the page size', async () => {
    for (let index = 0; index < 12; index++) {
      await actor({
        externalId: `G08${String(index).padStart(2, '0')}`,
        name: `Bulk Actor ${index}`,
        uses: { T1003: `p${index}`, T1566: `q${index}` },
      });
    }
    const query = `query ($limit: Int) {
      threatActors(limit: $limit) { total items { name techniqueCount techniques { ttpId name procedure technique { ttpId name } } } }
    }`;
    let small: any;
    let large: any;
    const smallCount = await countQueries(async () => (small = await app.graphql(query, { limit: 2 }, viewer)));
    // Six actors with every procedure text (a long text field) is what the cost limit admits with this selection.
    const largeCount = await countQueries(async () => (large = await app.graphql(query, { limit: 6 }, viewer)));
    expect(small.data.threatActors.items).toHaveLength(2);
    expect(large.data.threatActors.items).toHaveLength(6);
    const bulk = large.data.threatActors.items.filter((item: any) => item.name.startsWith('Bulk Actor'));
    expect(bulk.length).toBeGreaterThan(0);
    for (const item of bulk) expect(item).toMatchObject({ techniqueCount: 2, techniques: [expect.anything(), expect.anything()] });
    expect(largeCount).toBe(smallCount);
    const techniques = 'query { techniques { ttpId threatActors { name techniqueCount } } }';
    const first = await countQueries(() => app.graphql(techniques, {}, viewer));
    await technique('T1190', 'Exploit Public-Facing Application', 'Initial Access');
    await actor({ externalId: 'G0900', name: 'Edge Crew', uses: { T1190: 'Exploited a VPN appliance.' } });
    expect(await countQueries(() => app.graphql(techniques, {}, viewer))).toBe(first);
  });
});
