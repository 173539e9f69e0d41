/**
 * Writes docs/configuration.md from the configuration schema (src/config.ts: each variable's type, default and
 * description); test/config-docs.test.ts fails when the committed page differs.
 *
 *   npm run docs:config
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CONFIG_GROUPS } from '../src/config.ts';

export const configDocFile = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));

/** Prose lines are wrapped at this width; table rows stay short because descriptions live in the sections. */
const WIDTH = 110;

type Layer = { _zod: { def: any }; description?: string; format?: string | null; minValue?: number | null; maxValue?: number | null };

/** The schema and what it wraps (default, optional, the input side of a transform), outermost first. */
function layers(schema: Layer): Layer[] {
  const def = schema._zod.def;
  const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
  return [schema, ...(inner ? layers(inner) : [])];
}

const code = (text: string) => `\`${text}\``;

function typeOf(schema: Layer): string {
  for (const layer of layers(schema)) {
    const meta = z.globalRegistry.get(layer as never) as { type?: string } | undefined;
    if (meta?.type) return meta.type;
    const def = layer._zod.def;
    if (def.type === 'enum')
      return Object.values(def.entries as Record<string, string>)
        .map(code)
        .join(', ');
    if (def.type === 'number') {
      const [min, max] = [layer.minValue, layer.maxValue].map((bound) =>
        bound != null && Math.abs(bound) < Number.MAX_SAFE_INTEGER ? bound : null,
      );
      if (min !== null && max !== null) return `integer ${min}–${max}`;
      return `integer${min !== null ? ` ≥ ${min}` : ''}${max !== null ? ` ≤ ${max}` : ''}`;
    }
    if (def.type === 'string') {
      const format = layer.format ?? def.format;
      return format === 'url' ? 'URL' : format === 'email' ? 'e-mail address' : 'text';
    }
  }
  return 'text';
}

function defaultOf(schema: Layer): string {
  const layer = layers(schema).find((candidate) => ['default', 'prefault'].includes(candidate._zod.def.type));
  const value: unknown = layer?._zod.def.defaultValue;
  return value === undefined || value === '' ? '—' : code(String(value));
}

function descriptionOf(name: string, schema: Layer): string {
  if (!schema.description) throw new Error(`${name} has no description in src/config.ts`);
  return schema.description;
}

/** Greedy word wrap; `indent` starts every line after the first. */
function wrap(text: string, indent = ''): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = indent + word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

const variables = () =>
  CONFIG_GROUPS.flatMap((group) => Object.entries(group.variables as Record<string, Layer>).map(([name, schema]) => ({ name, schema })));

/** The page, as the script writes it. */
export function configPage(): string {
  const table = [
    '| Variable | Type | Default |',
    '| --- | --- | --- |',
    ...variables().map(({ name, schema }) => `| ${code(name)} | ${typeOf(schema)} | ${defaultOf(schema)} |`),
  ];
  const sections = CONFIG_GROUPS.flatMap((group) => [
    `## ${group.title}`,
    '',
    wrap(group.about),
    '',
    ...Object.entries(group.variables as Record<string, Layer>).map(([name, schema]) =>
      wrap(`- ${code(name)} (${typeOf(schema)}, default ${defaultOf(schema)}): ${descriptionOf(name, schema)}.`, '  '),
    ),
    '',
  ]);
  return [
    '# Configuration',
    '',
    '<!-- Written by `npm run docs:config` from the schema in src/config.ts: change the schema, then run it. -->',
    '',
    wrap(
      'Environment variables, read and validated once by `src/config.ts`; an invalid value stops the start with a list of ' +
        'every problem. Durations are written `30s`, `15m`, `8h`, `1d` (a bare number means seconds); sizes `512KB`, ' +
        '`100MB`, `1GB` (a bare number means bytes); booleans `true`, `false`, `1` or `0`. Host lists are comma-separated ' +
        "host names, addresses or CIDRs, each with an optional `:port` or `:*` (without one, only the service's usual " +
        'ports), e.g. `mirror.internal:8443,10.8.0.0/16`.',
    ),
    '',
    ...table,
    '',
    'Each section below says what its variables do.',
    '',
    ...sections,
    'The test helpers also read `TEST_POSTGRES_URL`, `TEST_REDIS_URL` and `TEST_LOG_LEVEL`.',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(configDocFile, configPage(), 'utf8');
  console.log('Wrote docs/configuration.md');
}
