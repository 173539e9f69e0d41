import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { countQueries } from '../../../test/helpers/queries.ts';
import { team, technique, type Team } from '../../../test/helpers/test-runs.ts';

const app = useTestApp();
let t: Team;
let techniqueId: string;
let ttpId: string;

beforeAll(async () => {
  t = await team(app);
  ({ id: techniqueId, ttpId } = await technique(app));
});

async function createPlaybook(body: Record<string, unknown> = {}, token = t.red_lead.token) {
  const response = await app.api('POST', '/knowledge/playbooks', {
    token,
    body: { technique_id: techniqueId, type: 'execution', title: 'Obfuscated PowerShell', content: 'v1: run it', ...body },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Record<string, any>;
}

const patch = (id: string, body: unknown, token = t.blue_lead.token) => app.api('PATCH', `/knowledge/playbooks/${id}`, { token, body });

describe('playbooks: versions', () => {
  it('each change keeps the replaced content as a version; a restore makes an earlier one current as a new version', async () => {
    const created = await createPlaybook({ tags: ['powershell', 'windows'] });
    expect(created).toMatchObject({ version: 1, restored_from: null, ttp_id: ttpId, content: 'v1: run it', versions: [] });
    expect(created.created_by).toBe(t.red_lead.id);

    const second = await patch(created.id, { version: 1, content: 'v2: run it obfuscated' });
    expect(second).toMatchObject({ status: 200, body: { version: 2, content: 'v2: run it obfuscated', title: 'Obfuscated PowerShell' } });
    expect(second.body.updated_by).toBe(t.blue_lead.id);
    const third = await patch(created.id, { version: 2, title: 'Obfuscated PowerShell, revised', content: 'v3: with base64' });
    expect(third).toMatchObject({ status: 200, body: { version: 3, content: 'v3: with base64' } });

    const versions = await app.api('GET', `/knowledge/playbooks/${created.id}/versions`, { token: t.viewer.token });
    expect(versions.status).toBe(200);
    expect(versions.body).toMatchObject({ total: 2, offset: 0, limit: 50 });
    expect(versions.body.items.map((v: any) => [v.version, v.title, v.content, v.author_id])).toEqual([
      [2, 'Obfuscated PowerShell', 'v2: run it obfuscated', t.blue_lead.id],
      [1, 'Obfuscated PowerShell', 'v1: run it', t.red_lead.id],
    ]);
    expect(versions.body.items[1].tags).toEqual(['powershell', 'windows']);

    const restored = await app.api('POST', `/knowledge/playbooks/${created.id}/restore/1`, { token: t.admin.token });
    expect(restored).toMatchObject({
      status: 200,
      body: { version: 4, restored_from: 1, title: 'Obfuscated PowerShell', content: 'v1: run it', updated_by: t.admin.id },
    });
    // History is never rewritten: version 3 is kept, and the restore is itself a version.
    expect(restored.body.versions.map((v: any) => [v.version, v.title])).toEqual([
      [3, 'Obfuscated PowerShell, revised'],
      [2, 'Obfuscated PowerShell'],
      [1, 'Obfuscated PowerShell'],
    ]);
    const fifth = await patch(created.id, { version: 4, content: 'v5' });
    expect(fifth.body).toMatchObject({ version: 5, restored_from: null });
    const all = await app.api('GET', `/knowledge/playbooks/${created.id}/versions`, { token: t.viewer.token });
    expect(all.body.items.map((v: any) => [v.version, v.content, v.restored_from])).toEqual([
      [4, 'v1: run it', 1],
      [3, 'v3: with base64', null],
      [2, 'v2: run it obfuscated', null],
      [1, 'v1: run it', null],
    ]);

    const detail = await app.api('GET', `/knowledge/playbooks/${created.id}`, { token: t.red_tech.token });
    expect(detail.body).toMatchObject({ version: 5, content: 'v5' });
    expect(detail.body.versions.map((v: any) => v.version)).toEqual([4, 3, 2, 1]);
    expect(Object.keys(detail.body.versions[0]).sort()).toEqual(
      ['authored_at', 'author_id', 'replaced_at', 'restored_from', 'title', 'type', 'version'].sort(),
    );

    const audit = await app.services.prisma.auditLog.findMany({ where: { entityId: created.id }, orderBy: { timestamp: 'asc' } });
    expect(audit.map((entry) => [entry.action, (entry.details as any).version])).toEqual([
      ['create_playbook', 1],
      ['update_playbook', 2],
      ['update_playbook', 3],
      ['restore_playbook_version', 4],
      ['update_playbook', 5],
    ]);
  });

  it('a change made on a stale version is refused with 409 CONFLICT and changes nothing', async () => {
    const { id } = await createPlaybook();
    expect((await patch(id, { version: 1, content: 'first writer' })).status).toBe(200);
    const stale = await patch(id, { version: 1, content: 'second writer' }, t.red_lead.token);
    expect(stale).toMatchObject({ status: 409, body: { code: 'CONFLICT', current_version: 2 } });
    expect(stale.body.detail).toMatch(/version 2, not 1/);
    const current = await app.api('GET', `/knowledge/playbooks/${id}`, { token: t.viewer.token });
    expect(current.body).toMatchObject({ version: 2, content: 'first writer' });
    expect(current.body.versions.map((v: any) => v.version)).toEqual([1]);
  });

  it('of two concurrent changes on the same version, exactly one wins and the other gets 409', async () => {
    const { id } = await createPlaybook();
    const answers = await Promise.all(
      ['one', 'two', 'three'].map((word) => patch(id, { version: 1, content: `writer ${word}` }, t.red_lead.token)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    const winner = answers.find((answer) => answer.status === 200)!;
    const stored = await app.services.prisma.playbook.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({ version: 2, content: winner.body.content });
    expect(await app.services.prisma.playbookVersion.count({ where: { playbookId: id } })).toBe(1);
  });

  it('a change that changes nothing makes no version', async () => {
    const { id } = await createPlaybook({ tags: ['a', 'b'] });
    const same = await patch(id, { version: 1, title: 'Obfuscated PowerShell', tags: ['a', 'b'] });
    expect(same).toMatchObject({ status: 200, body: { version: 1, versions: [] } });
  });

  it('restoring the current version is a 400 naming version; an unknown version is a 404', async () => {
    const { id } = await createPlaybook();
    await patch(id, { version: 1, content: 'v2' });
    expect(await app.api('POST', `/knowledge/playbooks/${id}/restore/2`, { token: t.red_lead.token })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'version' },
    });
    expect(await app.api('POST', `/knowledge/playbooks/${id}/restore/7`, { token: t.red_lead.token })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await app.api('POST', `/knowledge/playbooks/${id}/restore/x`, { token: t.red_lead.token })).toMatchObject({
      status: 400,
      body: { field: 'version' },
    });
    expect(await app.api('POST', `/knowledge/playbooks/${randomUUID()}/restore/1`, { token: t.red_lead.token })).toMatchObject({
      status: 404,
    });
  });

  it('deleting a playbook removes it and its versions (204)', async () => {
    const { id } = await createPlaybook();
    await patch(id, { version: 1, content: 'v2' });
    expect((await app.api('DELETE', `/knowledge/playbooks/${id}`, { token: t.blue_lead.token })).status).toBe(204);
    expect(await app.api('GET', `/knowledge/playbooks/${id}`, { token: t.viewer.token })).toMatchObject({ status: 404 });
    expect(await app.services.prisma.playbookVersion.count({ where: { playbookId: id } })).toBe(0);
    expect(await app.services.prisma.auditLog.count({ where: { action: 'delete_playbook', entityId: id } })).toBe(1);
  });
});

describe('playbooks: input', () => {
  it('invalid input answers 400 naming the field', async () => {
    const post = (body: Record<string, unknown>) => app.api('POST', '/knowledge/playbooks', { token: t.admin.token, body });
    const valid = { technique_id: techniqueId, type: 'detection', title: 'Sysmon event 1' };
    const { technique_id: _technique, ...noTechnique } = valid;
    expect(await post(noTechnique)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'technique_id' } });
    expect(await post({ ...valid, technique_id: randomUUID() })).toMatchObject({
      status: 400,
      body: { field: 'technique_id', detail: 'technique_id: no technique with this id' },
    });
    expect(await post({ ...valid, technique_id: 'T0000.000' })).toMatchObject({ status: 400, body: { field: 'technique_id' } });
    expect(await post({ ...valid, type: 'planning' })).toMatchObject({ status: 400, body: { field: 'type' } });
    expect(await post({ ...valid, title: '  ' })).toMatchObject({ status: 400, body: { field: 'title' } });
    expect(await post({ ...valid, tags: ['ok', ' '] })).toMatchObject({ status: 400, body: { field: 'tags.1' } });
    expect(await post({ ...valid, content: 'x'.repeat(100_001) })).toMatchObject({ status: 400, body: { field: 'content' } });

    const { id } = await createPlaybook();
    expect(await patch(id, { content: 'no version' })).toMatchObject({ status: 400, body: { field: 'version' } });
    expect(await patch(id, { version: 1, technique_id: randomUUID() })).toMatchObject({ status: 400, body: { field: 'technique_id' } });
  });

  it('technicians and viewers read but cannot write (403)', async () => {
    const { id } = await createPlaybook();
    for (const member of [t.red_tech, t.blue_tech, t.viewer]) {
      expect((await app.api('GET', `/knowledge/playbooks/${id}`, { token: member.token })).status).toBe(200);
      expect(await patch(id, { version: 1, content: 'mine' }, member.token)).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    }
  });
});

describe('playbooks: listing and full-text search', () => {
  let other: { id: string; ttpId: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    other = await technique(app);
    const token = t.admin.token;
    const make = async (key: string, body: Record<string, unknown>) => (ids[key] = (await createPlaybook(body, token)).id);
    await make('inContent', {
      technique_id: other.id,
      type: 'detection',
      title: 'Credential access notes',
      content: 'Kerberoasting requests service tickets. Kerberoasting again; kerberoasting everywhere.',
    });
    await make('inTitle', { technique_id: other.id, type: 'hunting', title: 'Hunting Kerberoasting', content: 'Look at 4769 events.' });
    await make('inTags', {
      technique_id: other.id,
      type: 'response',
      title: 'Ticket triage',
      content: 'Reset the account.',
      tags: ['kerberoasting'],
    });
    await make('unrelated', {
      technique_id: other.id,
      type: 'detection',
      title: 'Process creation',
      content: 'Sysmon detects encoded commands.',
    });
  });

  const search = async (query: string, token = t.viewer.token) => {
    const response = await app.api('GET', `/knowledge/playbooks?${query}`, { token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { items: any[]; total: number };
  };
  const keysOf = (items: any[]) => items.map((item) => Object.entries(ids).find(([, id]) => id === item.id)?.[0] ?? item.id);

  it('finds a playbook by a word of its content (stemmed), and ranks title matches first, then tags, then content', async () => {
    expect(keysOf((await search('search=sysmon')).items)).toEqual(['unrelated']);
    expect(keysOf((await search('search=encode')).items)).toEqual(['unrelated']);
    const ranked = await search('search=Kerberoasting');
    expect(keysOf(ranked.items)).toEqual(['inTitle', 'inTags', 'inContent']);
    expect(ranked.total).toBe(3);
    expect(ranked.items[0]).not.toHaveProperty('content');
  });

  it('search takes phrases, alternatives and exclusions, and combines with the filters; nonsense finds nothing', async () => {
    expect(keysOf((await search(`search=${encodeURIComponent('"service tickets"')}`)).items)).toEqual(['inContent']);
    expect(keysOf((await search(`search=${encodeURIComponent('kerberoasting -hunting')}`)).items)).toEqual(['inTags', 'inContent']);
    expect(keysOf((await search(`search=${encodeURIComponent('sysmon or triage')}`)).items).sort()).toEqual(['inTags', 'unrelated']);
    expect(keysOf((await search(`search=kerberoasting&type=detection&technique=${other.ttpId}`)).items)).toEqual(['inContent']);
    expect(keysOf((await search('search=kerberoasting&limit=1&offset=1')).items)).toEqual(['inTags']);
    expect((await search('search=kerberoasting&limit=1&offset=1')).total).toBe(3);
    expect(await search(`search=${encodeURIComponent('" & | ! ( :* \\')}`)).toMatchObject({ items: [], total: 0 });
    expect(await search('search=the')).toMatchObject({ items: [], total: 0 });
  });

  it('filters by technique (uuid or ttp id, any case) and type, most recently changed first', async () => {
    const byUuid = await search(`technique=${other.id}`);
    expect(keysOf(byUuid.items)).toEqual(['unrelated', 'inTags', 'inTitle', 'inContent']);
    expect((await search(`technique=${other.ttpId.toLowerCase()}`)).items.map((item) => item.id)).toEqual(byUuid.items.map((i) => i.id));
    expect(keysOf((await search(`technique=${other.ttpId}&type=detection`)).items)).toEqual(['unrelated', 'inContent']);
    expect(await search('technique=T0000')).toMatchObject({ items: [], total: 0 });
    expect(await app.api('GET', '/knowledge/playbooks?technique=%25%25', { token: t.viewer.token })).toMatchObject({
      status: 400,
      body: { field: 'technique' },
    });
    expect(await app.api('GET', '/knowledge/playbooks?limit=201', { token: t.viewer.token })).toMatchObject({
      status: 400,
      body: { field: 'limit' },
    });
  });

  it('GraphQL answers the same data as REST, and a page costs the same number of queries whatever its size', async () => {
    const rest = await search(`technique=${other.id}`);
    const graphql = await app.graphql(
      `query ($technique: String) { playbooks(filter: { technique: $technique }) { total items { id ttpId title version createdBy { username } } } }`,
      { technique: other.id },
      t.viewer.token,
    );
    expect(graphql.data.playbooks.total).toBe(rest.total);
    expect(graphql.data.playbooks.items.map((item: any) => [item.id, item.ttpId, item.title, item.version])).toEqual(
      rest.items.map((item) => [item.id, item.ttp_id, item.title, item.version]),
    );
    expect(graphql.data.playbooks.items[0].createdBy.username).toBe(t.admin.username);
    const queries = (limit: number) =>
      countQueries(() => app.api('GET', `/knowledge/playbooks?search=kerberoasting&limit=${limit}`, { token: t.viewer.token }));
    expect(await queries(3)).toBe(await queries(1));
  });
});

describe('playbooks and lessons name their technique by uuid or ATT&CK id', () => {
  it('a playbook and a lesson created and moved by ATT&CK id, in any case, store the uuid; an unknown id is a 400', async () => {
    const attack = await technique(app, 'T8765.001');
    const created = await createPlaybook({ technique_id: 't8765.001' });
    expect(created).toMatchObject({ technique_id: attack.id, ttp_id: 'T8765.001' });
    const other = await technique(app, 'T8765.002');
    const moved = await patch(created.id, { version: 1, technique_id: other.ttpId });
    expect(moved).toMatchObject({ status: 200, body: { technique_id: other.id, version: 2 } });
    const lesson = await app.api('POST', '/knowledge/lessons', {
      token: t.red_lead.token,
      body: { technique_id: 'T8765.001', what_happened: 'Missed', root_cause: 'No rule' },
    });
    expect(lesson).toMatchObject({ status: 201, body: { technique_id: attack.id } });
    const unknown = await app.api('POST', '/knowledge/playbooks', {
      token: t.red_lead.token,
      body: { technique_id: 'T9999.999', type: 'execution', title: 'Nowhere' },
    });
    expect(unknown).toMatchObject({ status: 400, body: { field: 'technique_id' } });
  });
});
