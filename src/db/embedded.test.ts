import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchEmbeddedPostgres } from './embedded.ts';
import { queryOnce as query } from './migrate.ts';

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

describe('the embedded database', () => {
  it('restarts in a new thread on the same files and socket: what was committed is there, and no crash is reported', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'violet-embedded-'));
    folders.push(folder);
    const crashes: Error[] = [];
    const embedded = launchEmbeddedPostgres(folder, 1, undefined, (error) => crashes.push(error));
    try {
      await embedded.ready;
      await query(embedded.url, 'CREATE TABLE kept (id int PRIMARY KEY); INSERT INTO kept VALUES (1), (2)');
      await embedded.restart();
      expect(await query(embedded.url, 'SELECT id FROM kept ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
      await query(embedded.url, 'INSERT INTO kept VALUES (3)');
      await embedded.restart();
      expect(await query(embedded.url, 'SELECT count(*)::int AS count FROM kept')).toEqual([{ count: 3 }]);
    } finally {
      await embedded.stop();
    }
    expect(crashes).toEqual([]);
  }, 60_000);
});
