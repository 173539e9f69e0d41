import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every domain module has the same shape (docs/architecture.md, "The shape of a module"): role sets of its root
 * fields in `permissions.ts`, event consumers in `consumers.ts`, job definitions in `jobs.ts`, and tests of its own.
 * A file that breaks the shape is listed here with the reason, or moved.
 */
const MODULES = join(import.meta.dirname, '../src/modules');

const EXCEPTIONS: Record<string, string> = {
  'email/delivery.ts': 'the send-email job runs the SMTP delivery it sits beside; e-mail is configured, not scheduled',
};

const modules = readdirSync(MODULES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const sourcesOf = (module: string): { file: string; text: string }[] =>
  readdirSync(join(MODULES, module), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => ({ file: file.replaceAll('\\', '/'), text: readFileSync(join(MODULES, module, file), 'utf8') }));

/** Names a file imports from a `permissions.ts` (its own module's or another's). */
const permissionImports = (text: string): Set<string> =>
  new Set(
    [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'[^']*permissions\.ts'/g)].flatMap((match) =>
      match[1].split(',').map((name) => name.trim().replace(/^type\s+/, '')),
    ),
  );

describe('module shape', () => {
  it('finds the modules', () => {
    expect(modules.length).toBeGreaterThan(30);
  });

  describe.each(modules)('%s', (module) => {
    const sources = sourcesOf(module);
    const misplaced = (pattern: RegExp, home: string) =>
      sources
        .filter(({ file, text }) => file !== home && pattern.test(text) && !EXCEPTIONS[`${module}/${file}`])
        .map(({ file }) => `${module}/${file}`);

    it('has tests of its own', () => {
      const tests = readdirSync(join(MODULES, module), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.test.ts'));
      expect(tests, `src/modules/${module} has no *.test.ts`).not.toEqual([]);
    });

    it('takes the role sets of its root fields and routes from a permissions.ts', () => {
      const loose: string[] = [];
      for (const { file, text } of sources.filter(({ file }) => file === 'resolvers.ts' || file === 'routes.ts')) {
        const imported = permissionImports(text);
        const uses = file === 'routes.ts' ? /\broles: ([A-Za-z_]\w*)(?=\.)/g : /\ballow\(([A-Za-z_]\w*)(?=[.)])/g;
        for (const [, name] of text.matchAll(uses)) if (!imported.has(name) && name !== 'row') loose.push(`${module}/${file}: ${name}`);
      }
      expect(loose, 'role sets must come from a permissions.ts (or a transition table row)').toEqual([]);
      expect(misplaced(/export const \w+Roles\s*[:=]/, 'permissions.ts'), 'role sets are declared in permissions.ts').toEqual([]);
    });

    it('keeps its event consumers in consumers.ts', () => {
      expect(misplaced(/\bdefineConsumer\(/, 'consumers.ts')).toEqual([]);
    });

    it('keeps its job definitions in jobs.ts', () => {
      expect(misplaced(/:\s*JobDefinition(<[^>]*>)?(\[\])?\s*=/, 'jobs.ts')).toEqual([]);
    });
  });

  it('lists only exceptions that still exist', () => {
    const files = new Set(modules.flatMap((module) => sourcesOf(module).map(({ file }) => `${module}/${file}`)));
    expect(Object.keys(EXCEPTIONS).filter((file) => !files.has(file))).toEqual([]);
  });
});
