import type { Route } from '../../../rest-adapter/types.ts';
import { complianceRoles } from './permissions.ts';

const FRAMEWORK_FIELDS = `id key name version attackVersion updatedAt controlCount
  mappedControlCount mappingCount attackIdCount`;

const CONTROL_FIELDS = `id controlId name family coverageStatus mappedCount
  assessedCount validatedCount partialCount
  techniques {
    attackId mappingType comments inCatalog assessed
    techniqueId techniqueName statusGlobal
  }`;

export const complianceRoutes: Route[] = [
  {
    method: 'GET',
    path: '/compliance/frameworks',
    tag: 'Compliance',
    summary: 'List compliance frameworks with their control, mapping and ATT&CK id counts',
    roles: complianceRoles.read,
    document: `query { complianceFrameworks { ${FRAMEWORK_FIELDS} } }`,
  },
  {
    method: 'GET',
    path: '/compliance/:framework_id/controls',
    tag: 'Compliance',
    summary: 'Controls of a framework (uuid or key) with coverage status and mapped techniques (filters status, family, search)',
    roles: complianceRoles.read,
    document: `query ($frameworkId: ID!, $status: ControlCoverage, $family: String, $search: String, $offset: Int, $limit: Int) {
      complianceControls(frameworkId: $frameworkId, filter: { status: $status, family: $family, search: $search }, offset: $offset, limit: $limit) {
        items { ${CONTROL_FIELDS} } total offset limit
      }
    }`,
  },
  {
    method: 'GET',
    path: '/compliance/:framework_id/summary',
    tag: 'Compliance',
    summary:
      'Control counts by coverage status (total, covered, partial, gaps, not_evaluated) and the mapped ATT&CK ids absent from the catalog',
    roles: complianceRoles.read,
    document: `query ($frameworkId: ID!) {
      complianceSummary(frameworkId: $frameworkId) {
        framework { ${FRAMEWORK_FIELDS} }
        total covered partial gaps notEvaluated unmapped coveragePercentage
        mappedAttackIdCount absentAttackIds absentCount
        inactiveAttackIds inactiveCount
      }
    }`,
  },
  {
    method: 'GET',
    path: '/compliance/:framework_id/gaps',
    tag: 'Compliance',
    summary: 'Uncovered controls (coverage status gap) of a framework with their mapped techniques',
    roles: complianceRoles.read,
    document: `query ($frameworkId: ID!, $offset: Int, $limit: Int) {
      complianceGaps(frameworkId: $frameworkId, offset: $offset, limit: $limit) { items { ${CONTROL_FIELDS} } total offset limit }
    }`,
  },
];
