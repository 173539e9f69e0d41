import type { Route } from '../../../rest-adapter/types.ts';
import { riskRoles } from './permissions.ts';

const LEVELS = 'levels { critical high medium low }';
const PROFILE_FIELDS = `techniqueId ttpId name tactic tactics status impact impactLevel
  likelihood score level actorCount tacticWeight stale computedAt`;
const TACTIC_FIELDS = 'tactic name techniques averageScore maxScore';

export const riskRoutes: Route[] = [
  {
    method: 'POST',
    path: '/risk/compute',
    expensive: true,
    tag: 'Risk',
    summary: 'Recompute the risk profile of every active technique (answers the counts and computed_at)',
    roles: riskRoles.compute,
    document: `mutation { computeRisk { profiles removed computedAt ${LEVELS} } }`,
  },
  {
    method: 'GET',
    path: '/risk/profiles',
    tag: 'Risk',
    summary: 'Risk profiles, highest score first (filters tactic, min_score, status, level)',
    roles: riskRoles.read,
    document: `query ($tactic: String, $minScore: Float, $status: CoverageStatus, $level: RiskLevel, $offset: Int, $limit: Int) {
      riskProfiles(filter: { tactic: $tactic, minScore: $minScore, status: $status, level: $level }, offset: $offset, limit: $limit) {
        items { ${PROFILE_FIELDS} details } total offset limit
      }
    }`,
  },
  {
    method: 'GET',
    path: '/risk/matrix',
    tag: 'Risk',
    summary: 'Impact levels × coverage statuses: count and highest-risk ttp ids (at most 10) per cell',
    roles: riskRoles.read,
    document: `query { riskMatrix { computedAt total rows { impactLevel total cells { status count ttpIds } } } }`,
  },
  {
    method: 'GET',
    path: '/risk/summary',
    tag: 'Risk',
    summary: 'Totals, averages, counts per risk level and status, tactics by average score and the highest-risk tactic',
    roles: riskRoles.read,
    document: `query { riskSummary {
      computedAt total averageScore averageImpact
      averageLikelihood maxScore ${LEVELS}
      statuses { validated partial inProgress notCovered notEvaluated }
      uncovered staleProfiles techniquesWithoutProfile
      highestRiskTactic { ${TACTIC_FIELDS} } tactics { ${TACTIC_FIELDS} }
    } }`,
  },
  {
    method: 'GET',
    path: '/risk/recommendations',
    tag: 'Risk',
    summary: 'Techniques to test next: highest risk among those not validated, with a reason',
    roles: riskRoles.read,
    document: `query ($limit: Int) { riskRecommendations(limit: $limit) { ${PROFILE_FIELDS} reason } }`,
  },
  {
    method: 'GET',
    path: '/risk/top',
    tag: 'Risk',
    summary: 'Highest-risk techniques without established detection: not covered, not evaluated or in progress',
    roles: riskRoles.read,
    document: `query ($limit: Int) { riskTop(limit: $limit) { ${PROFILE_FIELDS} reason } }`,
  },
];
