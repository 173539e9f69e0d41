import { parse } from 'yaml';
import type { Severity } from '../../generated/prisma/enums.ts';

export const SIGMA_SOURCE = 'sigma';
export const SIGMA_LICENSE = 'DRL-1.1';
export const SIGMA_REPOSITORY = 'https://github.com/SigmaHQ/sigma';

const LEVELS: readonly Severity[] = ['informational', 'low', 'medium', 'high', 'critical'];
const TECHNIQUE_TAG = /^attack\.(t\d{4}(?:\.\d{3})?)$/i;
/** Top-level folders of the SigmaHQ repository (and of its release archives) that hold rules. */
const UPSTREAM_ROOTS = /^(rules|rules-[a-z-]+|deprecated|unsupported)\//;

/** The fields a Sigma import owns: a re-import overwrites exactly these. */
export interface SigmaRuleData {
  externalId: string;
  title: string;
  description: string;
  severity: Severity;
  techniqueIds: string[];
  ttpTechniqueId: string | null;
  status: string | null;
  logSource: Record<string, unknown>;
  author: string | null;
  references: string[];
  license: string;
  sourceUrl: string | null;
  content: string;
}

export type ParsedRule = { ok: true; rule: SigmaRuleData } | { ok: false; reason: 'missing_id' | 'invalid'; detail: string };

const text = (value: unknown): string | null => {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
};

const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** ATT&CK technique ids of `attack.tNNNN[.NNN]` tags: upper-cased, deduplicated, in tag order. */
export function techniqueIdsOf(tags: unknown): string[] {
  if (!Array.isArray(tags)) return [];
  const ids = tags.map((tag) => TECHNIQUE_TAG.exec(String(tag).trim())?.[1]?.toUpperCase()).filter((id): id is string => !!id);
  return [...new Set(ids)];
}

/** Sigma's `level` as a severity; a missing or unknown level counts as medium (Sigma's own middle ground). */
export function severityOf(level: unknown): Severity {
  const value = text(level)?.toLowerCase();
  return LEVELS.find((candidate) => candidate === value) ?? 'medium';
}

/**
 * The upstream address of a rule file, when its path lies under one of the SigmaHQ repository's rule folders.
 * `ref` is the release tag the rules come from, or the default branch when unknown.
 */
export function upstreamUrl(path: string, ref = 'master'): string | null {
  const start = path.search(/(^|\/)(rules|rules-[a-z-]+|deprecated|unsupported)\//);
  if (start < 0) return null;
  const relative = path.slice(start).replace(/^\//, '');
  if (!UPSTREAM_ROOTS.test(relative)) return null;
  return `${SIGMA_REPOSITORY}/blob/${ref}/${relative.split('/').map(encodeURIComponent).join('/')}`;
}

/** Reads one Sigma rule file. Rules without an id cannot be tracked across imports and are refused. */
export function parseSigmaRule(content: string, sourceUrl: string | null): ParsedRule {
  let document: unknown;
  try {
    document = parse(content);
  } catch (error) {
    return { ok: false, reason: 'invalid', detail: (error as Error).message.split('\n')[0] };
  }
  if (!isRecord(document)) return { ok: false, reason: 'invalid', detail: 'not a YAML mapping' };
  const externalId = text(document.id);
  if (!externalId) return { ok: false, reason: 'missing_id', detail: 'no id' };
  const title = text(document.title);
  if (!title) return { ok: false, reason: 'invalid', detail: 'no title' };
  const techniqueIds = techniqueIdsOf(document.tags);
  const author = Array.isArray(document.author) ? document.author.map(text).filter(Boolean).join(', ') : text(document.author);
  const references = Array.isArray(document.references) ? document.references.map(text).filter((ref): ref is string => !!ref) : [];
  return {
    ok: true,
    rule: {
      externalId,
      title: title.slice(0, 500),
      description: text(document.description) ?? '',
      severity: severityOf(document.level),
      techniqueIds,
      ttpTechniqueId: techniqueIds[0] ?? null,
      status: text(document.status),
      logSource: isRecord(document.logsource) ? document.logsource : {},
      author: author || null,
      references,
      license: SIGMA_LICENSE,
      sourceUrl,
      content,
    },
  };
}
