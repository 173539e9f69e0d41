/**
 * The web app's figures on the `npm run seed:large` dataset (1,000 techniques, 100,000 tests), in Debian's Chromium
 * driven by playwright-core against the built service (`node dist/src/main.js`, what `npm start` runs):
 *
 * - matrix: from navigation to /matrix until every technique cell is rendered and the grid answers a key press;
 *   the GraphQL requests it sent;
 * - board: from navigation to /board until its six columns hold their first page; then a card's move on a watcher's
 *   board after another user's transition (the watcher's browser, the actor an API client), `--moves` times;
 * - bundle: the JavaScript the first page loads (index.html's script and its module preloads), gzip-compressed,
 *   and the largest route chunks.
 *
 *   npm run seed:large            # once (PostgreSQL database violet_bench)
 *   npm run bench:web [-- --runs=5 --moves=10]
 *
 * DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/violet_bench), BENCH_PASSWORD (the seed's), CHROMIUM_PATH.
 */
import { spawnSync } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { WEB_DIST } from '../src/paths.ts';
import { launchBrowser, openContext, signIn } from '../test/e2e/chromium.ts';
import { startServiceProcess, waitFor } from '../test/helpers/service-process.ts';

const { values: options } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, moves: { type: 'string', default: '10' } },
});
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/violet_bench';
const PASSWORD = process.env.BENCH_PASSWORD ?? 'violet-bench-password';
const KiB = 1024;

const ms = (value: number) => `${Math.round(value)} ms`;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const summary = (values: number[]) => {
  const order = sorted(values);
  return `median ${ms(order[Math.floor(order.length / 2)])}, max ${ms(order.at(-1)!)} (${values.map(ms).join(', ')})`;
};

/** The JavaScript index.html loads before anything else, and every chunk, with their gzip sizes. */
async function bundle() {
  const html = await readFile(join(WEB_DIST, 'index.html'), 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]);
  const assets = await readdir(join(WEB_DIST, 'assets'));
  const sizes = await Promise.all(
    assets
      .filter((name) => name.endsWith('.js'))
      .map(async (name) => {
        const bytes = await readFile(join(WEB_DIST, 'assets', name));
        return { name, raw: bytes.length, gzip: gzipSync(bytes).length };
      }),
  );
  const initialSizes = sizes.filter((size) => initial.includes(`assets/${size.name}`));
  return {
    initialGzip: initialSizes.reduce((sum, size) => sum + size.gzip, 0),
    initialRaw: initialSizes.reduce((sum, size) => sum + size.raw, 0),
    initialFiles: initialSizes.length,
    chunks: sizes.length,
    largest: sorted(sizes.map((size) => size.gzip))
      .reverse()
      .slice(0, 5)
      .map((gzip) => sizes.find((size) => size.gzip === gzip)!),
  };
}

async function usernames(): Promise<Record<string, string>> {
  const client = new pg.Client(DATABASE_URL);
  await client.connect();
  try {
    const { rows } = await client.query<{ role: string; username: string }>(
      'SELECT DISTINCT ON (role) role, username FROM users WHERE is_active ORDER BY role, username',
    );
    return Object.fromEntries(rows.map((row) => [row.role, row.username]));
  } finally {
    await client.end();
  }
}

/** Navigates to the matrix; resolves with the time until all `cells` are rendered and the grid answers a key. */
async function openMatrix(page: Page, cells: number): Promise<{ rendered: number; interactive: number; requests: number }> {
  await page.goto('about:blank');
  let requests = 0;
  const count = (request: { url(): string; postData(): string | null }) => {
    if (request.url().endsWith('/graphql') && request.postData()?.includes('heatmap')) requests += 1;
  };
  page.on('request', count);
  const started = performance.now();
  await page.goto('/matrix');
  await page.waitForFunction((expected) => document.querySelectorAll('.matrix li').length >= expected, cells, { timeout: 30_000 });
  const rendered = performance.now() - started;
  // Interactive: the grid takes focus and moves it on an arrow key.
  await page.locator('.matrix a').first().focus();
  const before = await page.evaluate(() => document.activeElement?.textContent);
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction((text) => document.activeElement?.textContent !== text, before, { timeout: 10_000 });
  const interactive = performance.now() - started;
  page.off('request', count);
  return { rendered, interactive, requests };
}

async function main() {
  if (spawnSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' }).status !== 0) process.exit(1);
  console.log(
    `node ${process.version}, ${cpus().length} cores, load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
  const sizes = await bundle();
  console.log(
    `bundle: first page loads ${sizes.initialFiles} scripts, ${(sizes.initialGzip / KiB).toFixed(1)} KiB gzip ` +
      `(${(sizes.initialRaw / KiB).toFixed(0)} KiB raw); ${sizes.chunks} chunks; largest gzip: ` +
      sizes.largest.map((size) => `${size.name} ${(size.gzip / KiB).toFixed(1)} KiB`).join(', '),
  );

  const names = await usernames();
  const service = await startServiceProcess({ DATABASE_URL, NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_ENABLED: 'false' });
  const browser = await launchBrowser();
  try {
    const viewerToken = await login(service.base, names.viewer);
    const heatmap = await fetch(`${service.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${viewerToken}` },
      body: JSON.stringify({ query: '{ heatmap { tactics { techniques { ttpId } } } }' }),
    });
    const { data } = (await heatmap.json()) as { data: { heatmap: { tactics: { techniques: unknown[] }[] } } };
    const cells = data.heatmap.tactics.reduce((sum, tactic) => sum + tactic.techniques.length, 0);
    const watcher = await openContext(browser, service.base);
    await signIn(watcher.page, names.viewer, PASSWORD);
    await watcher.page.getByRole('navigation', { name: 'Main' }).waitFor();

    const matrix: Awaited<ReturnType<typeof openMatrix>>[] = [];
    for (let run = 0; run < Number(options.runs); run++) matrix.push(await openMatrix(watcher.page, cells));
    console.log(`matrix (1,000 techniques, ${cells} cells): rendered ${summary(matrix.map((run) => run.rendered))}`);
    console.log(
      `matrix: interactive ${summary(matrix.map((run) => run.interactive))}; requests for the matrix's data per load: ${matrix.map((run) => run.requests).join(', ')}`,
    );

    const board: number[] = [];
    for (let run = 0; run < Number(options.runs); run++) {
      await watcher.page.goto('about:blank');
      const started = performance.now();
      await watcher.page.goto('/board');
      await watcher.page.waitForFunction(() => document.querySelectorAll('.board li').length >= 6 * 20, undefined, { timeout: 30_000 });
      board.push(performance.now() - started);
    }
    console.log(`board (100,000 tests, 20 cards per column): loaded ${summary(board)}`);

    // Live moves: drafts of one campaign on the watcher's board; a red lead starts them one by one over the API.
    const campaign = await pgRow<{ id: string }>(
      "SELECT campaign_id AS id FROM tests WHERE state = 'draft' AND campaign_id IS NOT NULL GROUP BY campaign_id ORDER BY count(*) DESC LIMIT 1",
    );
    const token = await login(service.base, names.red_lead);
    await watcher.page.goto(`/board?campaign=${campaign.id}`);
    const column = watcher.page.getByRole('region', { name: /^Red executing/ });
    await column.waitFor();
    const moves: number[] = [];
    for (let move = 0; move < Number(options.moves); move++) {
      const draft = await pgRow<{ id: string; name: string }>(
        `SELECT id, name FROM tests WHERE state = 'draft' AND campaign_id = '${campaign.id}' ORDER BY created_at DESC, id LIMIT 1`,
      );
      await watcher.page.getByRole('heading', { name: draft.name, exact: true }).first().waitFor({ timeout: 10_000 });
      const started = performance.now();
      const answer = await fetch(`${service.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: 'mutation ($id: UUID!) { startTestExecution(id: $id) { id state } }', variables: { id: draft.id } }),
      });
      const body = (await answer.json()) as { errors?: unknown };
      if (body.errors) throw new Error(`startTestExecution: ${JSON.stringify(body.errors)}`);
      await column.getByRole('heading', { name: draft.name, exact: true }).first().waitFor({ timeout: 10_000 });
      moves.push(performance.now() - started);
    }
    console.log(`live board: a card moves on the watcher's board after another user's transition: ${summary(moves)}`);
  } finally {
    await browser.close();
    service.child.kill('SIGTERM');
    await service.exited;
  }
}

async function pgRow<T>(sql: string): Promise<T> {
  const client = new pg.Client(DATABASE_URL);
  await client.connect();
  try {
    const { rows } = await client.query(sql);
    if (!rows[0]) throw new Error(`no row for ${sql}`);
    return rows[0] as T;
  } finally {
    await client.end();
  }
}

async function login(base: string, username: string): Promise<string> {
  return waitFor('a sign-in', Date.now() + 10_000, async () => {
    const response = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      body: new URLSearchParams({ username, password: PASSWORD }),
    });
    return response.ok ? ((await response.json()) as { access_token: string }).access_token : undefined;
  });
}

await main();
