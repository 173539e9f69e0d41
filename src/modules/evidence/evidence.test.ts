import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'minio';
// @ts-expect-error s3rver ships no type declarations
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../auth/roles.ts';
import type { TestState } from '../../generated/prisma/enums.ts';
import { startTestApp, type TestApp, useTestApp } from '../../../test/helpers/app.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const MB = 1024 * 1024;

interface Part {
  name: string;
  value?: string;
  /** A filename="…" parameter, or a raw parameter string such as filename*=UTF-8''… */
  filename?: string;
  rawFilename?: string;
  type?: string;
  data?: Buffer;
}

/** A multipart/form-data body built byte by byte, so tests control part order and headers exactly. */
function multipart(parts: Part[]) {
  const boundary = `violet-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    if (part.rawFilename !== undefined) head += `; ${part.rawFilename}`;
    head += '\r\n';
    if (part.type) head += `Content-Type: ${part.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), part.data ?? Buffer.from(part.value ?? ''), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const filePart = (data: Buffer, filename = 'capture.log', type = 'text/plain'): Part => ({ name: 'file', filename, type, data });

/** One service under test, with its fixtures: a technique, a creator, users per role. */
class Fixture {
  techniqueId = '';
  creatorId = '';
  readonly users = new Map<Role, { id: string; token: string }>();

  constructor(readonly app: TestApp) {}

  async setUp() {
    const technique = await this.app.services.prisma.technique.create({
      data: { ttpId: `T${randomBytes(3).toString('hex')}`, name: 'Evidence technique' },
    });
    this.techniqueId = technique.id;
    for (const role of ['admin', 'red_lead', 'red_tech', 'blue_lead', 'blue_tech', 'viewer'] as Role[]) {
      const user = await this.app.createUser({ role });
      this.users.set(role, { id: user.id, token: await this.app.login(user.username) });
    }
    this.creatorId = this.user('admin').id;
  }

  user(role: Role) {
    return this.users.get(role)!;
  }

  token(role: Role) {
    return this.user(role).token;
  }

  async createTest(state: TestState): Promise<string> {
    const id = randomUUID();
    await this.app.services.prisma.test.create({
      data: { id, lineageId: id, techniqueId: this.techniqueId, name: `Test in ${state}`, state, createdById: this.creatorId },
    });
    return id;
  }

  async upload(testId: string, token: string, parts: Part[], query = '') {
    const { body, contentType } = multipart(parts);
    const response = await fetch(`${this.app.url}/api/v1/tests/${testId}/evidence${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body,
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  async download(path: string, token?: string) {
    const response = await fetch(path.startsWith('http') ? path : `${this.app.url}/api/v1${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return response;
  }
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
    .sort();
}

/** Waits (at most 5 s) for a condition the service reaches on its own, such as cleaning up after an abort. */
async function eventually(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const PUBLIC_URL = 'http://violet.example:8443';

describe('evidence on disk', () => {
  const app = useTestApp({ EVIDENCE_MAX_SIZE: '1MB', PUBLIC_URL, DOWNLOAD_URL_TTL: '10m' });
  let f: Fixture;
  let evidenceDir: string;
  /** download_url names PUBLIC_URL; the test reaches the same service at its listening address. */
  const local = (url: string) => url.replace(PUBLIC_URL, app.url);

  beforeAll(async () => {
    f = new Fixture(app);
    await f.setUp();
    evidenceDir = join(app.services.config.DATA_DIR, 'evidence');
  });

  it('a red technician uploads during red_executing; hash, metadata, signed link and download give back the same bytes', async () => {
    const testId = await f.createTest('red_executing');
    const bytes = randomBytes(200_000);
    const uploaded = await f.upload(testId, f.token('red_tech'), [
      { name: 'team', value: 'red' },
      filePart(bytes, 'beacon.pcap', 'application/vnd.tcpdump.pcap'),
    ]);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({
      test_id: testId,
      team: 'red',
      file_name: 'beacon.pcap',
      content_type: 'application/vnd.tcpdump.pcap',
      size_bytes: 200_000,
      sha256_hash: sha256(bytes),
      uploaded_by: f.user('red_tech').id,
    });
    expect(Date.now() - new Date(uploaded.body.uploaded_at).getTime()).toBeLessThan(60_000);
    const id = uploaded.body.id as string;
    expect(uploaded.body.download_url).toMatch(
      new RegExp(`^${PUBLIC_URL}/api/v1/evidence/${id}/file\\?expires=\\d+&signature=[\\w-]{43}$`),
    );
    const expiresIn = new Date(uploaded.body.download_url_expires_at).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(9 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60_000 + 1000);

    const metadata = await app.api('GET', `/evidence/${id}`, { token: f.token('viewer') });
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({ id, test_id: testId, sha256_hash: sha256(bytes), file_name: 'beacon.pcap' });

    const viaLink = await f.download(local(metadata.body.download_url));
    expect(viaLink.status).toBe(200);
    expect(viaLink.headers.get('content-disposition')).toBe('attachment; filename="beacon.pcap"');
    expect(Buffer.from(await viaLink.arrayBuffer()).equals(bytes)).toBe(true);

    const streamed = await f.download(`/evidence/${id}/download`, f.token('viewer'));
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toBe('application/vnd.tcpdump.pcap');
    expect(streamed.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await streamed.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await f.download(`/evidence/${id}/download`)).status).toBe(401);

    const listed = await app.api('GET', `/tests/${testId}/evidence`, { token: f.token('viewer') });
    expect(listed.body.map((item: any) => [item.id, item.sha256_hash])).toEqual([[id, sha256(bytes)]]);
    const graph = await app.graphql(
      'query ($id: UUID!) { evidence(id: $id) { team sizeBytes test { id evidences { id fileName } } } }',
      { id },
      f.token('blue_tech'),
    );
    expect(graph.data).toEqual({
      evidence: { team: 'red', sizeBytes: 200_000, test: { id: testId, evidences: [{ id, fileName: 'beacon.pcap' }] } },
    });

    const row = await app.services.prisma.evidence.findUniqueOrThrow({ where: { id } });
    expect(row.storageKey).toMatch(new RegExp(`^tests/${testId}/[0-9a-f-]{36}$`));
    expect(await filesUnder(evidenceDir)).toContain(row.storageKey);
    const event = await app.services.prisma.testEvent.findFirst({ where: { testId, kind: 'evidence_added' } });
    expect(event).toMatchObject({
      actorId: f.user('red_tech').id,
      details: { evidence_id: id, team: 'red', sha256_hash: sha256(bytes), size_bytes: 200_000 },
    });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'upload_evidence', entityId: id } });
    expect(audit).toMatchObject({
      entityType: 'evidence',
      userId: f.user('red_tech').id,
      details: { test_id: testId, file_name: 'beacon.pcap' },
    });
  });

  it('team comes from the query or a form field before the file; both must agree and one is required', async () => {
    const testId = await f.createTest('in_review');
    const bytes = Buffer.from('blue notes');
    const byQuery = await f.upload(testId, f.token('blue_lead'), [filePart(bytes)], '?team=blue');
    expect(byQuery).toMatchObject({ status: 201, body: { team: 'blue' } });
    const disagree = await f.upload(testId, f.token('admin'), [{ name: 'team', value: 'red' }, filePart(bytes)], '?team=blue');
    expect(disagree).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'team' } });
    const afterFile = await f.upload(testId, f.token('admin'), [filePart(bytes), { name: 'team', value: 'red' }]);
    expect(afterFile).toMatchObject({ status: 400, body: { field: 'team' } });
    const badTeam = await f.upload(testId, f.token('admin'), [filePart(bytes)], '?team=purple');
    expect(badTeam).toMatchObject({ status: 400, body: { field: 'team' } });
    expect(await app.services.prisma.evidence.count({ where: { testId } })).toBe(1);
  });

  it('each team uploads only its own evidence: red RL, RT, A; blue BL, BT, A', async () => {
    const testId = await f.createTest('in_review');
    const outcome = async (role: Role, team: string) =>
      (await f.upload(testId, f.token(role), [filePart(Buffer.from(`${role} ${team}`))], `?team=${team}`)).status;
    const table: Record<string, [number, number]> = {};
    for (const role of ['admin', 'red_lead', 'red_tech', 'blue_lead', 'blue_tech', 'viewer'] as Role[])
      table[role] = [await outcome(role, 'red'), await outcome(role, 'blue')];
    expect(table).toEqual({
      admin: [201, 201],
      red_lead: [201, 403],
      red_tech: [201, 403],
      blue_lead: [403, 201],
      blue_tech: [403, 201],
      viewer: [403, 403],
    });
    expect(await app.services.prisma.evidence.count({ where: { testId } })).toBe(6);
    expect(await filesUnder(join(evidenceDir, 'tests', testId))).toHaveLength(6);
  });

  it('red adds evidence from red_executing on, blue from blue_evaluating on, nobody once validated', async () => {
    const allowed: Record<string, [number, number]> = {};
    for (const state of ['draft', 'red_executing', 'blue_evaluating', 'in_review', 'rejected', 'validated'] as TestState[]) {
      const testId = await f.createTest(state);
      const red = await f.upload(testId, f.token('admin'), [filePart(Buffer.from('r'))], '?team=red');
      const blue = await f.upload(testId, f.token('admin'), [filePart(Buffer.from('b'))], '?team=blue');
      allowed[state] = [red.status, blue.status];
      if (red.status === 409) expect(red.body.code).toBe('INVALID_STATE');
    }
    expect(allowed).toEqual({
      draft: [409, 409],
      red_executing: [201, 409],
      blue_evaluating: [201, 201],
      in_review: [201, 201],
      rejected: [201, 201],
      validated: [409, 409],
    });
    const unknown = await f.upload(randomUUID(), f.token('admin'), [filePart(Buffer.from('x'))], '?team=red');
    expect(unknown).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('a file above EVIDENCE_MAX_SIZE answers 413 and leaves nothing behind; exactly the limit is accepted', async () => {
    const testId = await f.createTest('red_executing');
    const before = await filesUnder(evidenceDir);
    const justOver = await f.upload(testId, f.token('red_tech'), [filePart(randomBytes(MB + 1))], '?team=red');
    expect(justOver).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
    const farOver = await f.upload(testId, f.token('red_tech'), [filePart(randomBytes(3 * MB))], '?team=red');
    expect(farOver).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(await app.services.prisma.evidence.count({ where: { testId } })).toBe(0);
    expect(await filesUnder(evidenceDir)).toEqual(before);

    const exact = randomBytes(MB);
    const accepted = await f.upload(testId, f.token('red_tech'), [filePart(exact)], '?team=red');
    expect(accepted).toMatchObject({ status: 201, body: { size_bytes: MB, sha256_hash: sha256(exact) } });
  });

  it('an upload cut off half-way leaves neither a file nor a record', async () => {
    const testId = await f.createTest('red_executing');
    const before = await filesUnder(evidenceDir);
    const { body, contentType } = multipart([filePart(randomBytes(600_000))]);
    const request = httpRequest(`${app.url}/api/v1/tests/${testId}/evidence?team=red`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.token('red_tech')}`, 'content-type': contentType, 'content-length': String(body.length) },
    });
    request.on('error', () => undefined);
    request.write(body.subarray(0, 300_000));
    const inFlight = () => filesUnder(join(evidenceDir, '.incoming'));
    await eventually(async () => (await inFlight()).length === 1);
    request.destroy();
    await eventually(async () => (await inFlight()).length === 0);
    expect(await filesUnder(evidenceDir)).toEqual(before);
    expect(await app.services.prisma.evidence.count({ where: { testId } })).toBe(0);
    expect((await f.upload(testId, f.token('red_tech'), [filePart(Buffer.from('after'))], '?team=red')).status).toBe(201);
  });

  it('a request without a file answers 400; a body that is not multipart answers 415', async () => {
    const testId = await f.createTest('red_executing');
    const noFile = await f.upload(testId, f.token('red_tech'), [{ name: 'team', value: 'red' }]);
    expect(noFile).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'file' } });
    const json = await app.api('POST', `/tests/${testId}/evidence?team=red`, { token: f.token('red_tech'), body: { file: 'x' } });
    expect(json).toMatchObject({
      status: 415,
      body: { code: 'UNSUPPORTED_MEDIA_TYPE', detail: 'The request body must be multipart/form-data' },
    });
    const twoFiles = await f.upload(testId, f.token('red_tech'), [filePart(Buffer.from('1')), filePart(Buffer.from('2'))], '?team=red');
    expect(twoFiles).toMatchObject({ status: 400, body: { field: 'file' } });
    const { body: whole, contentType } = multipart([filePart(randomBytes(50_000))]);
    const truncated = await fetch(`${app.url}/api/v1/tests/${testId}/evidence?team=red`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.token('red_tech')}`, 'content-type': contentType },
      body: whole.subarray(0, 30_000),
    });
    expect(truncated.status).toBe(400);
    expect(await truncated.json()).toMatchObject({ code: 'VALIDATION_ERROR', detail: expect.stringMatching(/Malformed multipart/) });
    expect(await app.services.prisma.evidence.count({ where: { testId } })).toBe(0);
    expect(await filesUnder(join(evidenceDir, 'tests', testId))).toEqual([]);
  });

  it('file names are reduced to a safe base name and never reach the storage key', async () => {
    const testId = await f.createTest('red_executing');
    const name = async (part: Part) => {
      const response = await f.upload(
        testId,
        f.token('red_tech'),
        [{ ...part, name: 'file', data: Buffer.from('x'), type: part.type ?? 'text/plain' }],
        '?team=red',
      );
      expect(response.status).toBe(201);
      return response.body.file_name as string;
    };
    expect(await name({ name: 'file', filename: '../../../etc/passwd' })).toBe('passwd');
    expect(await name({ name: 'file', filename: '..\\..\\windows\\system.ini' })).toBe('system.ini');
    expect(await name({ name: 'file', filename: '..' })).toBe('evidence');
    expect(await name({ name: 'file', rawFilename: "filename*=UTF-8''evil%07na%0Ame%E2%80%AEgpj.exe" })).toBe('evilnamegpj.exe');
    expect(await name({ name: 'file', filename: '.hidden' })).toBe('hidden');
    expect(await name({ name: 'file', filename: 'rapport d’incident é.txt' })).toBe('rapport d’incident é.txt');
    const long = await name({ name: 'file', filename: `${'a'.repeat(300)}.log` });
    expect(long).toHaveLength(200);
    expect(long.endsWith('.log')).toBe(true);
    expect(await name({ name: 'file', filename: 'x.bin', type: `application/${'x'.repeat(200)}` })).toBe('x.bin');

    const rows = await app.services.prisma.evidence.findMany({ where: { testId }, orderBy: { uploadedAt: 'asc' } });
    expect(rows.at(-1)!.contentType).toBe('application/octet-stream');
    expect(rows[0].contentType).toBe('text/plain');
    for (const row of rows) expect(row.storageKey).toMatch(new RegExp(`^tests/${testId}/[0-9a-f-]{36}$`));
    const unicode = rows.find((row) => row.fileName.startsWith('rapport'))!;
    const download = await f.download(`/evidence/${unicode.id}/download`, f.token('viewer'));
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="rapport d_incident _.txt"; filename*=UTF-8''rapport%20d%E2%80%99incident%20%C3%A9.txt`,
    );
  });

  it('signed links refuse tampering and expiry with 403 and malformed parameters with 400', async () => {
    const testId = await f.createTest('red_executing');
    const bytes = Buffer.from('link me');
    const { body } = await f.upload(testId, f.token('red_tech'), [filePart(bytes)], '?team=red');
    const link = new URL(local(body.download_url));
    const signature = link.searchParams.get('signature')!;
    const expires = Number(link.searchParams.get('expires'));
    const at = (id: string, query: string) => f.download(`/evidence/${id}/file?${query}`);

    expect((await at(body.id, link.search.slice(1))).status).toBe(200);
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect((await at(body.id, `expires=${expires}&signature=${flipped}`)).status).toBe(403);
    expect((await at(body.id, `expires=${expires + 60}&signature=${signature}`)).status).toBe(403);
    const other = await f.upload(testId, f.token('red_tech'), [filePart(Buffer.from('other'))], '?team=red');
    expect((await at(other.body.id, `expires=${expires}&signature=${signature}`)).status).toBe(403);

    const past = Math.floor(Date.now() / 1000) - 5;
    const expired = await at(body.id, `expires=${past}&signature=${app.services.storage.links.sign(body.id, past)}`);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toMatchObject({ code: 'FORBIDDEN', detail: expect.stringMatching(/expired/) });

    expect((await at(body.id, '')).status).toBe(400);
    expect((await at(body.id, `expires=soon&signature=${signature}`)).status).toBe(400);
    expect((await at(body.id, `expires=${expires}&signature=short`)).status).toBe(400);
  });

  it('a stored file altered after upload is never served whole', async () => {
    const testId = await f.createTest('red_executing');
    const bytes = randomBytes(300_000);
    const { body } = await f.upload(testId, f.token('red_tech'), [filePart(bytes)], '?team=red');
    const row = await app.services.prisma.evidence.findUniqueOrThrow({ where: { id: body.id } });
    const path = join(evidenceDir, row.storageKey);

    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 1] ^= 0xff;
    await writeFile(path, flipped);
    const sameSize = await f.download(`/evidence/${body.id}/download`, f.token('admin'));
    await expect(sameSize.arrayBuffer()).rejects.toThrow();
    const viaLink = await f.download(local(body.download_url));
    await expect(viaLink.arrayBuffer()).rejects.toThrow();

    await writeFile(path, Buffer.from('short'));
    const resized = await f.download(`/evidence/${body.id}/download`, f.token('admin'));
    expect(resized.status).toBe(500);
    expect(await resized.json()).toMatchObject({ code: 'EVIDENCE_INTEGRITY' });
    expect(resized.headers.get('content-disposition')).toBeNull();

    await rm(path);
    expect((await f.download(`/evidence/${body.id}/download`, f.token('admin'))).status).toBe(500);
  });

  it('the uploader, leads and admins delete evidence; the file goes, then the row, with a timeline entry', async () => {
    const testId = await f.createTest('blue_evaluating');
    const red = await f.upload(testId, f.token('red_tech'), [filePart(Buffer.from('red'))], '?team=red');
    const blue = await f.upload(testId, f.token('blue_tech'), [filePart(Buffer.from('blue'))], '?team=blue');
    const keyOf = async (id: string) => (await app.services.prisma.evidence.findUniqueOrThrow({ where: { id } })).storageKey;
    const redKey = await keyOf(red.body.id);

    expect((await app.api('DELETE', `/evidence/${red.body.id}`, { token: f.token('blue_tech') })).status).toBe(403);
    expect((await app.api('DELETE', `/evidence/${red.body.id}`, { token: f.token('viewer') })).status).toBe(403);
    const own = await app.api('DELETE', `/evidence/${red.body.id}`, { token: f.token('red_tech') });
    expect(own).toMatchObject({ status: 200, body: { id: red.body.id, test_id: testId, file_name: 'capture.log' } });
    expect(await filesUnder(evidenceDir)).not.toContain(redKey);
    expect(await app.services.prisma.evidence.findUnique({ where: { id: red.body.id } })).toBeNull();
    expect((await app.api('DELETE', `/evidence/${red.body.id}`, { token: f.token('admin') })).status).toBe(404);
    expect((await app.api('GET', `/evidence/${red.body.id}`, { token: f.token('admin') })).status).toBe(404);

    const byLead = await app.graphql(
      'mutation ($id: UUID!) { deleteEvidence(id: $id) { id team } }',
      { id: blue.body.id },
      f.token('red_lead'),
    );
    expect(byLead.data).toEqual({ deleteEvidence: { id: blue.body.id, team: 'blue' } });
    const kinds = await app.services.prisma.testEvent.findMany({
      where: { testId },
      orderBy: { at: 'asc' },
      select: { kind: true, actorId: true },
    });
    expect(kinds).toEqual([
      { kind: 'evidence_added', actorId: f.user('red_tech').id },
      { kind: 'evidence_added', actorId: f.user('blue_tech').id },
      { kind: 'evidence_deleted', actorId: f.user('red_tech').id },
      { kind: 'evidence_deleted', actorId: f.user('red_lead').id },
    ]);
    expect(
      await app.services.prisma.auditLog.count({ where: { action: 'delete_evidence', details: { path: ['test_id'], equals: testId } } }),
    ).toBe(2);
  });

  it('a validated test keeps its evidence: only an admin may delete it', async () => {
    const testId = await f.createTest('in_review');
    const { body } = await f.upload(testId, f.token('red_lead'), [filePart(Buffer.from('final'))], '?team=red');
    await app.services.prisma.test.update({ where: { id: testId }, data: { state: 'validated' } });
    expect(await app.api('DELETE', `/evidence/${body.id}`, { token: f.token('red_lead') })).toMatchObject({
      status: 409,
      body: { code: 'INVALID_STATE' },
    });
    expect((await app.api('DELETE', `/evidence/${body.id}`, { token: f.token('admin') })).status).toBe(200);
  });

  it('unknown tests and evidence answer 404', async () => {
    const token = f.token('viewer');
    expect((await app.api('GET', `/tests/${randomUUID()}/evidence`, { token })).status).toBe(404);
    expect((await app.api('GET', `/evidence/${randomUUID()}`, { token })).status).toBe(404);
    expect((await app.api('GET', `/evidence/not-a-uuid/download`, { token })).status).toBe(404);
  });
});

describe('evidence in S3-compatible object storage', () => {
  const BUCKET = 'violet-evidence-test';
  let s3: any;
  let s3Dir: string;
  let client: Client;
  let app: TestApp;
  let f: Fixture;

  beforeAll(async () => {
    s3Dir = await mkdtemp(join(tmpdir(), 'violet-s3-'));
    s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
    const { port } = await s3.run();
    const endpoint = `http://127.0.0.1:${port}`;
    client = new Client({
      endPoint: '127.0.0.1',
      port,
      useSSL: false,
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      region: 'us-east-1',
      pathStyle: true,
    });
    app = await startTestApp({
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY: 'S3RVER',
      S3_SECRET_KEY: 'S3RVER',
      S3_BUCKET: BUCKET,
      EVIDENCE_MAX_SIZE: '10MB',
    });
    f = new Fixture(app);
    await f.setUp();
  });
  afterAll(async () => {
    await app?.close();
    if (s3) await new Promise((resolve) => s3.close(resolve));
    await rm(s3Dir, { recursive: true, force: true });
  });

  it('the service creates its bucket and reports the s3 driver as healthy', async () => {
    expect(await client.bucketExists(BUCKET)).toBe(true);
    const health = await app.api('GET', '/system/health', { token: await app.tokenFor('admin') });
    expect(health.body).toMatchObject({ status: 'ok', storage: { status: 'ok', driver: 's3' } });
  });

  it('round trip: upload in parts, presigned link, streamed download, delete removes the object', async () => {
    const testId = await f.createTest('blue_evaluating');
    const bytes = randomBytes(9 * MB);
    const uploaded = await f.upload(testId, f.token('blue_tech'), [
      { name: 'team', value: 'blue' },
      filePart(bytes, 'siem-export.json', 'application/json'),
    ]);
    expect(uploaded).toMatchObject({
      status: 201,
      body: { team: 'blue', size_bytes: 9 * MB, sha256_hash: sha256(bytes), content_type: 'application/json' },
    });
    const row = await app.services.prisma.evidence.findUniqueOrThrow({ where: { id: uploaded.body.id } });
    expect((await client.statObject(BUCKET, row.storageKey)).size).toBe(9 * MB);

    const metadata = await app.api('GET', `/evidence/${row.id}`, { token: f.token('viewer') });
    expect(metadata.body.download_url).toContain(`/${BUCKET}/${row.storageKey}?`);
    expect(metadata.body.download_url).toContain('X-Amz-Signature=');
    const presigned = await fetch(metadata.body.download_url);
    expect(presigned.status).toBe(200);
    expect(sha256(Buffer.from(await presigned.arrayBuffer()))).toBe(sha256(bytes));

    const streamed = await f.download(`/evidence/${row.id}/download`, f.token('red_tech'));
    expect(streamed.headers.get('content-length')).toBe(String(9 * MB));
    expect(Buffer.from(await streamed.arrayBuffer()).equals(bytes)).toBe(true);

    expect((await app.api('DELETE', `/evidence/${row.id}`, { token: f.token('blue_tech') })).status).toBe(200);
    await expect(client.statObject(BUCKET, row.storageKey)).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('a file above the limit answers 413 and leaves no object behind', async () => {
    const testId = await f.createTest('red_executing');
    const tooLarge = await f.upload(testId, f.token('red_lead'), [filePart(randomBytes(10 * MB + 1))], '?team=red');
    expect(tooLarge).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
    const objects: unknown[] = await client.listObjectsV2(BUCKET, `tests/${testId}/`, true).toArray();
    expect(objects).toEqual([]);
    expect(await app.services.prisma.evidence.count({ where: { testId } })).toBe(0);
  });

  it('an object altered in the bucket fails its download', async () => {
    const testId = await f.createTest('red_executing');
    const bytes = randomBytes(100_000);
    const { body } = await f.upload(testId, f.token('red_tech'), [filePart(bytes)], '?team=red');
    const row = await app.services.prisma.evidence.findUniqueOrThrow({ where: { id: body.id } });
    const altered = Buffer.from(bytes);
    altered[0] ^= 0x01;
    await client.putObject(BUCKET, row.storageKey, altered);
    const download = await f.download(`/evidence/${body.id}/download`, f.token('admin'));
    await expect(download.arrayBuffer()).rejects.toThrow();
  });

  it('health reports a storage error when the object store is gone, without failing the service', async () => {
    await new Promise((resolve) => s3.close(resolve));
    const health = await app.api('GET', '/system/health', { token: await app.tokenFor('admin') });
    expect(health.body).toMatchObject({ status: 'ok', storage: { status: 'error', driver: 's3' } });
    s3 = null;
  });
});
