import type { Route } from '../../../rest-adapter/types.ts';
import { catalogRoles } from './permissions.ts';

export const catalogRoutes: Route[] = [
  {
    method: 'GET',
    path: '/software',
    tag: 'Catalog',
    summary: 'List ATT&CK software, malware and tools (filters kind malware|tool, search on name, alias or S id, include_deprecated)',
    roles: catalogRoles.read,
    document: `query ($kind: SoftwareKind, $search: String, $includeDeprecated: Boolean, $offset: Int, $limit: Int) {
      software(filter: { kind: $kind, search: $search, includeDeprecated: $includeDeprecated }, offset: $offset, limit: $limit) {
        items { id externalId kind name aliases description platforms revoked deprecated stixId attackModified } total offset limit
      }
    }`,
  },
];
