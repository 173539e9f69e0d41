import { z } from 'zod';
import { body, type Route } from '../../../rest-adapter/types.ts';
import { parseInput } from '../../validation.ts';
import { comparePair } from './navigator.ts';
import { scoreRoles } from './permissions.ts';

const WEIGHTS = `coverage detection validationFreshness detectionRate`;
const COVERAGE = `coverage { validated partial inProgress notCovered notEvaluated
  coveragePercentage }`;
const CONFIG_FIELDS = `weights { ${WEIGHTS} } defaults { ${WEIGHTS} } terms { name description }
  updatedAt updatedById`;

const HEATMAP_TECHNIQUE = `techniqueId ttpId name status score`;
const HEATMAP = `query ($platform: String) {
  heatmap(platform: $platform) {
    platform techniqueCount
    tactics { id shortName name order techniques { ${HEATMAP_TECHNIQUE} subTechniques { ${HEATMAP_TECHNIQUE} } } }
  }
}`;
const NAVIGATOR = `query ($platform: String, $snapshotId: String, $before: String, $after: String) {
  navigatorLayer(platform: $platform, snapshotId: $snapshotId, before: $before, after: $after)
}`;

const single = z.string('must be given once').trim().min(1, 'must not be empty');
const heatmapQuery = z
  .object({
    format: z.enum(['json', 'navigator'], 'must be json or navigator').default('json'),
    platform: single.optional(),
    snapshot: single.optional(),
    compare: single.optional(),
  })
  .superRefine((input, context) => {
    for (const key of ['snapshot', 'compare'] as const) {
      if (input[key] && input.format !== 'navigator') context.addIssue({ code: 'custom', path: [key], message: 'needs format=navigator' });
    }
    if (input.snapshot && input.compare)
      context.addIssue({ code: 'custom', path: ['compare'], message: 'give either snapshot or compare, not both' });
  });

export const scoresRoutes: Route[] = [
  {
    method: 'GET',
    path: '/scores/technique/:ttp_id',
    tag: 'Scores',
    summary: 'Technique score (0–100) with its breakdown: every term with value, weight and points (the points add up to the score)',
    roles: scoreRoles.read,
    document: `query ($ttpId: String!) { techniqueScore(ttpId: $ttpId) {
      techniqueId ttpId name status score formula terms { name description value weight points }
      inputs { validatedTests detectedTests partiallyDetectedTests
        lastValidatedAt activeDetectionRules }
    } }`,
  },
  {
    method: 'GET',
    path: '/scores/tactic/:tactic',
    tag: 'Scores',
    summary: 'Average score of the active techniques of a tactic (by TA id, short name or name), with counts by status',
    roles: scoreRoles.read,
    document: `query ($tactic: String!) { tacticScore(tactic: $tactic) {
      tactic { id shortName name order } score techniqueCount ${COVERAGE} weights { ${WEIGHTS} }
    } }`,
  },
  {
    method: 'GET',
    path: '/scores/threat-actor/:id',
    tag: 'Scores',
    summary:
      'Coverage against a threat actor (uuid or G id): average score of the techniques it uses, counts by status, techniques lowest score first',
    roles: scoreRoles.read,
    document: `query ($id: String!) { threatActorScore(id: $id) {
      threatActor { id externalId name } score techniqueCount ${COVERAGE}
      techniques { techniqueId ttpId name status score } weights { ${WEIGHTS} }
    } }`,
  },
  {
    method: 'GET',
    path: '/scores/organization',
    tag: 'Scores',
    summary: 'Organisation score: mean score of every active technique, and per tactic; cached 5 minutes',
    roles: scoreRoles.read,
    document: `query { organizationScore {
      score techniqueCount
      byTactic { id shortName name order score techniqueCount }
      weights { ${WEIGHTS} } computedAt
    } }`,
  },
  {
    method: 'GET',
    path: '/scores/history',
    tag: 'Scores',
    summary: 'Weekly organisation score and coverage percentage from the last snapshot of each week (period 30d, 90d or 1y; default 90d)',
    roles: scoreRoles.read,
    document: `query ($period: String) { scoreHistory(period: $period) {
      period weeks { weekStart snapshotId snapshotAt score coveragePercentage }
    } }`,
  },
  {
    method: 'GET',
    path: '/scores/config',
    tag: 'Scores',
    summary: 'Current scoring weights, the defaults and what each term measures',
    roles: scoreRoles.config,
    document: `query { scoreConfig { ${CONFIG_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/scores/config',
    tag: 'Scores',
    summary:
      'Update scoring weights: body weights with any of coverage, detection, validation_freshness, detection_rate (each 0–1; all must add up to 1 ± 0.001)',
    roles: scoreRoles.config,
    document: `mutation ($input: UpdateScoreConfigInput!) { updateScoreConfig(input: $input) { ${CONFIG_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/heatmap',
    tag: 'Scores',
    summary:
      'Matrix-style heatmap of every active technique with status and score (query platform). format=navigator answers an ATT&CK Navigator layer (4.5); with snapshot={id} the layer of a snapshot, with compare={before},{after} the change between two snapshots',
    roles: scoreRoles.heatmap,
    documents: [HEATMAP, NAVIGATOR],
    queryParameters: {
      format: { type: 'string', enum: ['json', 'navigator'], default: 'json' },
      platform: { type: 'string', minLength: 1 },
      snapshot: { type: 'string', minLength: 1 },
      compare: { type: 'string', minLength: 1 },
    },
    async handle(req, res, { execute }) {
      const { format, platform, snapshot, compare } = parseInput(heatmapQuery, req.query);
      if (format === 'json') {
        res.json(await execute(HEATMAP, { platform }));
        return;
      }
      const pair = compare ? comparePair(compare) : {};
      res.json(await execute(NAVIGATOR, { platform, snapshotId: snapshot, ...pair }));
    },
  },
];
