import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { configDocFile, configPage } from '../scripts/docs-config.ts';
import { CONFIG_GROUPS } from '../src/config.ts';

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` writes from the configuration schema', async () => {
    const committed = await readFile(configDocFile, 'utf8').catch(() => '');
    const message = 'docs/configuration.md is out of date: run `npm run docs:config` and commit the result';
    expect(committed, message).toBe(configPage());
  });

  it('documents each variable once, in one section, and keeps its lines readable', async () => {
    const documented = CONFIG_GROUPS.flatMap((group) => Object.keys(group.variables));
    expect(new Set(documented).size).toBe(documented.length);
    const page = await readFile(configDocFile, 'utf8');
    const long = page.split('\n').filter((line) => line.length > 120);
    expect(long).toEqual([]);
  });
});
