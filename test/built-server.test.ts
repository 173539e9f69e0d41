import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVICE_NODE_FLAGS } from '../scripts/service-flags.mjs';
import { createTestDatabase } from './helpers/database.ts';
import { referenceData } from './helpers/reference-data.ts';
import { STARTUP_BUDGET_MS, startServiceProcess, type ServiceProcess } from './helpers/service-process.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function startBuilt(engine: 'postgresql' | 'pglite'): Promise<ServiceProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'violet-built-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = { DATA_DIR: dataDir };
  if (engine === 'postgresql') {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    env.DATABASE_URL = database.url;
  }
  const service = await startServiceProcess(env);
  cleanups.push(async () => {
    if (service.child.exitCode === null) service.child.kill('SIGTERM');
    await service.exited;
  });
  return service;
}

describe('the built service (node dist/src/main.js, what npm start runs)', () => {
  for (const engine of ['postgresql', 'pglite'] as const) {
    it(
      `on ${engine}: applies the migrations from dist/, answers health, GraphQL and REST, serves the docs pages' assets and the web app`,
      async () => {
        const service = await startBuilt(engine);
        const token = await service.login();

        const health = await service.api('GET', '/system/health', token);
        expect(health).toMatchObject({ status: 200, body: { status: 'ok', database: { status: 'ok', engine } } });

        const graphql = await fetch(`${service.base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: '{ me { username role } health { status } }' }),
        });
        expect(await graphql.json()).toEqual({ data: { me: { username: 'admin', role: 'admin' }, health: { status: 'ok' } } });

        const me = await service.api('GET', '/auth/me', token);
        expect(me).toMatchObject({ status: 200, body: { username: 'admin', role: 'admin' } });

        // Reads through Prisma as bundled (with the build's patches to it): a test and its technique, the technique's
        // columns selected by the document, the test's relations loaded in its own statement.
        const technique = await service.api('POST', '/techniques', token, {
          ttp_id: 'T9700',
          name: 'Built',
          description: 'Read through a test',
          tactic: 'Execution',
        });
        expect(technique.status).toBe(201);
        const test = await service.api('POST', '/tests', token, { name: 'built', technique_id: 'T9700' });
        expect(test.status).toBe(201);
        const read = await service.api('GET', `/tests/${test.body.id}`, token);
        expect(read).toMatchObject({
          status: 200,
          body: {
            name: 'built',
            technique: { id: technique.body.id, ttp_id: 'T9700', name: 'Built', tactic: 'Execution', status_global: 'not_evaluated' },
            evidences: [],
            detection_evaluations: [],
            tracker_issue: null,
          },
        });
        // The list of tests, read in SQL of its own on the database pool and executed by the bundled graphql-js with
        // the build's patches (leaves completed without a resolve info, wide rows as ordinary objects): each item is the
        // test as its own read answers it, over REST and GraphQL.
        const { evidences, detection_evaluations, tracker_issue, ...listed } = read.body;
        const list = await service.api('GET', '/tests?limit=5', token);
        expect(list.status).toBe(200);
        expect(list.body.items.find((item: { id: string }) => item.id === test.body.id)).toEqual(listed);
        const board = await fetch(`${service.base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({
            query: '{ tests(limit: 5) { items { id name state elapsedSeconds technique { ttpId } createdBy { username } } } }',
          }),
        });
        expect((await board.json()).data.tests.items).toContainEqual({
          id: test.body.id,
          name: 'built',
          state: 'draft',
          elapsedSeconds: 0,
          technique: { ttpId: 'T9700' },
          createdBy: { username: 'admin' },
        });
        const detail = await fetch(`${service.base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: `{ test(id: "${test.body.id}") { technique { ttpId description createdAt } } }` }),
        });
        expect(await detail.json()).toEqual({
          data: { test: { technique: { ttpId: 'T9700', description: 'Read through a test', createdAt: technique.body.created_at } } },
        });
        // A JSON column comes back as written through the bundled Prisma, objects shaped like its tagged values
        // (`{$type, value}`, which its deserialiser turns into Dates, BigInts or parsed JSON) included.
        const logSource = {
          product: 'windows',
          $type: 'DateTime',
          value: '2020-01-01T00:00:00.000Z',
          nested: [
            { $type: 'Json', value: '{"a":1}' },
            { $type: 'BigInt', value: '12' },
          ],
        };
        const rule = await service.api('POST', '/detection-rules', token, {
          title: 'Built rule',
          technique_ids: ['T9700'],
          log_source: logSource,
        });
        expect(rule).toMatchObject({ status: 201, body: { log_source: logSource } });
        for (const path of [`/detection-rules/${rule.body.id}`, '/detection-rules?limit=5']) {
          const again = await service.api('GET', path, token);
          const read = (again.body.items ?? [again.body]).find((item: { id: string }) => item.id === rule.body.id);
          expect(read, path).toMatchObject({ id: rule.body.id, log_source: logSource, created_at: rule.body.created_at });
        }

        // An ATT&CK sync, its bundle parsed by the bundled catalog worker thread.
        const bundle = referenceData('attack', 'enterprise-attack-17.1.trimmed.json');
        const source = await service.api('PATCH', '/data-sources/attack_enterprise', token, { location: bundle });
        expect(source.status, JSON.stringify(source.body)).toBe(200);
        const sync = await service.api('POST', '/data-sources/attack_enterprise/sync', token);
        expect(sync.status, JSON.stringify(sync.body)).toBe(202);
        await expect
          .poll(
            async () => {
              const sources = await service.api('GET', '/data-sources', token);
              return sources.body.find((each: { kind: string }) => each.kind === 'attack_enterprise')?.last_run?.status;
            },
            { timeout: 30_000, interval: 200 },
          )
          .toBe('succeeded');
        expect((await service.api('GET', '/techniques/T1059', token)).body).toMatchObject({ ttp_id: 'T1059' });

        // A PDF report, laid out by the bundled PDF worker thread (pdfkit and its fonts loaded there).
        const pdf = await fetch(`${service.base}/api/v1/reports/generate/technique/T9700`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(pdf.status).toBe(200);
        expect(pdf.headers.get('content-type')).toBe('application/pdf');
        expect(
          Buffer.from(await pdf.arrayBuffer())
            .subarray(0, 5)
            .toString('latin1'),
        ).toBe('%PDF-');

        const openapi = await service.api('GET', '/openapi.json');
        expect(openapi.status).toBe(200);
        expect(openapi.body.paths['/auth/me'].get).toBeDefined();
        const swagger = await fetch(`${service.base}/static/swagger-ui/swagger-ui-bundle.js`);
        expect(swagger.status).toBe(200);
        expect(await swagger.text()).toContain('SwaggerUIBundle');
        const graphiql = await fetch(`${service.base}/static/graphiql/graphiql.min.js`);
        expect(graphiql.status).toBe(200);

        // The web app's page and its first script, as a browser asks for them.
        const page = await fetch(`${service.base}/board`, { headers: { accept: 'text/html' } });
        expect(page.status).toBe(200);
        const html = await page.text();
        const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
        expect(script, html.slice(0, 300)).toBeDefined();
        expect((await fetch(`${service.base}${script}`)).status).toBe(200);
      },
      STARTUP_BUDGET_MS + 30_000,
    );
  }

  it('starts from its bundles with the code cache the build stored: this node, with the service options, accepts it', () => {
    const boot = pathToFileURL(join(process.cwd(), 'dist/server/boot.js')).href;
    const check = spawnSync(
      process.execPath,
      [
        ...SERVICE_NODE_FLAGS,
        '--input-type=module',
        '-e',
        `const boot = await import(${JSON.stringify(boot)}); console.log(JSON.stringify({ api: boot.codeCacheAccepted('api'), worker: boot.codeCacheAccepted('worker') }));`,
      ],
      { encoding: 'utf8' },
    );
    expect(check.stderr).toBe('');
    expect(JSON.parse(check.stdout)).toEqual({ api: true, worker: true });
  });

  it('dist/ is the build of these sources: the start check neither rebuilds nor prints anything', () => {
    const check = spawnSync(process.execPath, ['scripts/ensure-build.mjs'], { encoding: 'utf8' });
    expect({ status: check.status, stdout: check.stdout, stderr: check.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('every way of starting the service and the worker passes the same node options', async () => {
    const flags = SERVICE_NODE_FLAGS.join(' ');
    const { scripts } = JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).toBe(`node ${flags} dist/src/main.js`);
    expect(scripts.worker).toBe(`node ${flags} dist/workers/main.js`);
    const inJson = ['node', ...SERVICE_NODE_FLAGS].map((part) => JSON.stringify(part)).join(', ');
    expect(await readFile('Dockerfile', 'utf8')).toContain(`CMD [${inJson}, "dist/src/main.js"]`);
    const compose = await readFile('docker-compose.yml', 'utf8');
    expect(compose).toContain(`command: [${inJson}, "dist/src/main.js"]`);
    expect(compose).toContain(`command: [${inJson}, "dist/workers/main.js"]`);
    expect(compose.match(/command: \["node"/g)).toHaveLength(2);
  });
});
