import { apiKeyRoutes } from '../src/modules/api-keys/routes.ts';
import { auditRoutes } from '../src/modules/audit/routes.ts';
import { authRoutes } from '../src/modules/auth/routes.ts';
import { notificationRoutes } from '../src/modules/notifications/routes.ts';
import { systemRoutes } from '../src/modules/system/routes.ts';
import { techniqueRoutes } from '../src/modules/techniques/routes.ts';
import { userRoutes } from '../src/modules/users/routes.ts';
import { threatActorsRoutes } from '../src/modules/threat-actors/routes.ts';
import { intelRoutes } from '../src/modules/intel/routes.ts';
import { countermeasuresRoutes } from '../src/modules/countermeasures/routes.ts';
import { complianceRoutes } from '../src/modules/compliance/routes.ts';
import { testTemplatesRoutes } from '../src/modules/test-templates/routes.ts';
import { detectionRulesRoutes } from '../src/modules/detection-rules/routes.ts';
import { testsRoutes } from '../src/modules/test-runs/routes.ts';
import { evidenceRoutes } from '../src/modules/evidence/routes.ts';
import { dataSourcesRoutes } from '../src/modules/data-sources/routes.ts';
import { campaignsRoutes } from '../src/modules/campaigns/routes.ts';
import { metricsRoutes } from '../src/modules/metrics/routes.ts';
import { scoresRoutes } from '../src/modules/scores/routes.ts';
import { snapshotsRoutes } from '../src/modules/snapshots/routes.ts';
import { riskRoutes } from '../src/modules/risk/routes.ts';
import { reportsRoutes } from '../src/modules/reports/routes.ts';
import { webhookRoutes } from '../src/modules/webhooks/routes.ts';
import { detectionLifecycleRoutes } from '../src/modules/detection-lifecycle/routes.ts';
import { ownershipRoutes } from '../src/modules/ownership/routes.ts';
import { alertRoutes } from '../src/modules/alerts/routes.ts';
import { analyticsRoutes } from '../src/modules/analytics/routes.ts';
import { ssoRoutes } from '../src/modules/sso/routes.ts';
import { attackPathsRoutes } from '../src/modules/attack-paths/routes.ts';
import { knowledgeRoutes } from '../src/modules/knowledge/routes.ts';
import { worklogRoutes } from '../src/modules/worklogs/routes.ts';
import { osintRoutes } from '../src/modules/osint/routes.ts';
import { trackerRoutes } from '../src/modules/tracker/routes.ts';
import { catalogRoutes } from '../src/modules/catalog/routes.ts';
import type { Route } from './types.ts';

/** Every REST route of /api/v1: the one table behind the adapter, the OpenAPI document and the matrix test. */
export const routes: readonly Route[] = [
  ...authRoutes,
  ...userRoutes,
  ...apiKeyRoutes,
  ...techniqueRoutes,
  ...notificationRoutes,
  ...auditRoutes,
  ...systemRoutes,
  ...threatActorsRoutes,
  ...intelRoutes,
  ...countermeasuresRoutes,
  ...complianceRoutes,
  ...testTemplatesRoutes,
  ...detectionRulesRoutes,
  ...testsRoutes,
  ...evidenceRoutes,
  ...dataSourcesRoutes,
  ...campaignsRoutes,
  ...metricsRoutes,
  ...scoresRoutes,
  ...snapshotsRoutes,
  ...riskRoutes,
  ...reportsRoutes,
  ...webhookRoutes,
  ...detectionLifecycleRoutes,
  ...ownershipRoutes,
  ...alertRoutes,
  ...analyticsRoutes,
  ...ssoRoutes,
  ...attackPathsRoutes,
  ...knowledgeRoutes,
  ...worklogRoutes,
  ...osintRoutes,
  ...trackerRoutes,
  ...catalogRoutes,
];
