import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { catalogAttackVersion } from './attack-version.ts';
import { catalogTactics, type CatalogTactic } from './heatmap.ts';

/** ATT&CK Navigator layer (file format 4.5) shell: palette, legend, technique entries and layer-wide settings. */

/** Layer file format written, and the Navigator release it targets (4.5 needs at least 4.9.0). */
export const LAYER_FORMAT = '4.5';
export const NAVIGATOR_VERSION = '5.2.0';
const DOMAIN = 'enterprise-attack';

/** The Navigator only knows ATT&CK ids; custom techniques are left out of layers. */
const ATTACK_ID = /^T\d{4}(\.\d{3})?$/;

export const STATUS_COLORS: Record<CoverageStatus, string> = {
  validated: '#31a354',
  partial: '#fec44f',
  in_progress: '#9ecae1',
  not_covered: '#de2d26',
  not_evaluated: '#d9d9d9',
};
export const STATUS_LABELS: Record<CoverageStatus, string> = {
  validated: 'Validated',
  partial: 'Partial',
  in_progress: 'In progress',
  not_covered: 'Not covered',
  not_evaluated: 'Not evaluated',
};

export const CHANGE_COLORS = { improved: '#31a354', regressed: '#de2d26', added: '#6baed6', removed: '#969696' } as const;
export type Change = keyof typeof CHANGE_COLORS;
export const CHANGE_LABELS: Record<Change, string> = {
  improved: 'Improved',
  regressed: 'Regressed',
  added: 'Only in the later snapshot',
  removed: 'Only in the earlier snapshot',
};

/** Coverage from worst to best: a move to the right is an improvement. */
export const STATUS_ORDER: readonly CoverageStatus[] = ['not_evaluated', 'not_covered', 'in_progress', 'partial', 'validated'];

export const SCORE_GRADIENT = { colors: ['#ff6666', '#ffe766', '#8ec843'], minValue: 0, maxValue: 100 };
export const CHANGE_GRADIENT = { colors: ['#de2d26', '#ffffff', '#31a354'], minValue: -100, maxValue: 100 };

export type Metadata = { name: string; value: string } | { divider: true };

export interface LayerTechnique {
  techniqueID: string;
  tactic?: string;
  score?: number;
  color: string;
  comment: string;
  enabled: boolean;
  metadata: Metadata[];
  showSubtechniques: boolean;
}

/** What a layer says about one technique; placed once per ATT&CK tactic it has. */
export interface Annotation {
  ttpId: string;
  tactics: string[];
  isSubtechnique: boolean;
  parentTtpId: string | null;
  score: number | null;
  color: string;
  comment: string;
  metadata: Metadata[];
  /** Whether its sub-techniques are worth opening (a parent with an evaluated or changed sub-technique). */
  expand?: boolean;
}

export const round2 = (value: number) => Math.round(value * 100) / 100;
export const dayOf = (date: Date) => date.toISOString().slice(0, 10);

function techniqueEntries(
  annotations: readonly Annotation[],
  catalog: ReadonlySet<string>,
): { entries: LayerTechnique[]; omitted: number } {
  const entries: LayerTechnique[] = [];
  let omitted = 0;
  for (const annotation of annotations) {
    if (!ATTACK_ID.test(annotation.ttpId)) {
      omitted++;
      continue;
    }
    const tactics = [...new Set(annotation.tactics.filter((tactic) => catalog.has(tactic)))];
    const base = {
      techniqueID: annotation.ttpId,
      ...(annotation.score === null ? {} : { score: annotation.score }),
      color: annotation.color,
      comment: annotation.comment,
      enabled: true,
      metadata: annotation.metadata,
      showSubtechniques: !annotation.isSubtechnique && !!annotation.expand,
    };
    if (!tactics.length) entries.push(base);
    for (const tactic of tactics) entries.push({ ...base, tactic });
  }
  return { entries, omitted };
}

/** Marks parents whose sub-techniques the layer should open. */
export function expandParents(annotations: Annotation[], worthShowing: (annotation: Annotation) => boolean) {
  const parents = new Set(annotations.filter((a) => a.isSubtechnique && a.parentTtpId && worthShowing(a)).map((a) => a.parentTtpId));
  for (const annotation of annotations) if (!annotation.isSubtechnique && parents.has(annotation.ttpId)) annotation.expand = true;
}

interface LayerParts {
  name: string;
  description: string;
  platform: string | null;
  annotations: Annotation[];
  gradient: { colors: string[]; minValue: number; maxValue: number };
  legendItems: { label: string; color: string }[];
  expanded: 'none' | 'annotated';
  metadata: Metadata[];
  /** The catalog tactics, when already read. */
  tactics?: readonly CatalogTactic[];
}

export async function layerOf(services: Services, parts: LayerParts) {
  const [attack, tactics] = await Promise.all([catalogAttackVersion(services), parts.tactics ?? catalogTactics(services)]);
  const { entries, omitted } = techniqueEntries(parts.annotations, new Set(tactics.map((tactic) => tactic.shortName)));
  return {
    name: parts.name,
    versions: { attack, navigator: NAVIGATOR_VERSION, layer: LAYER_FORMAT },
    domain: DOMAIN,
    description: parts.description,
    ...(parts.platform ? { filters: { platforms: [parts.platform] } } : {}),
    sorting: 0,
    layout: {
      layout: 'side',
      aggregateFunction: 'average',
      showID: true,
      showName: true,
      showAggregateScores: false,
      countUnscored: false,
      expandedSubtechniques: parts.expanded,
    },
    hideDisabled: false,
    techniques: entries,
    gradient: parts.gradient,
    legendItems: parts.legendItems,
    showTacticRowBackground: false,
    tacticRowBackground: '#dddddd',
    selectTechniquesAcrossTactics: true,
    selectSubtechniquesWithParent: false,
    selectVisibleTechniques: false,
    metadata: [
      ...parts.metadata,
      { name: 'generated_by', value: 'Violet' },
      { name: 'generated_at', value: new Date().toISOString() },
      { name: 'custom_techniques_left_out', value: String(omitted) },
    ],
  };
}

export const statusLegend = () =>
  [...STATUS_ORDER].reverse().map((status) => ({ label: STATUS_LABELS[status], color: STATUS_COLORS[status] }));
