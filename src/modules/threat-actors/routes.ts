import type { Route } from '../../../rest-adapter/types.ts';
import { threatActorRoles } from './permissions.ts';

const LIST_FIELDS = `id externalId name aliases motivation country techniqueCount revoked deprecated`;

export const threatActorsRoutes: Route[] = [
  {
    method: 'GET',
    path: '/threat-actors',
    tag: 'Threat actors',
    summary: 'List threat actors (filters country, motivation, search, include_deprecated)',
    roles: threatActorRoles.read,
    document: `query ($country: String, $motivation: String, $search: String, $includeDeprecated: Boolean, $offset: Int, $limit: Int) {
      threatActors(filter: { country: $country, motivation: $motivation, search: $search, includeDeprecated: $includeDeprecated }, offset: $offset, limit: $limit) {
        items { ${LIST_FIELDS} } total offset limit
      }
    }`,
  },
  {
    method: 'GET',
    path: '/threat-actors/:id',
    tag: 'Threat actors',
    summary: 'One threat actor by uuid or group id (G0007), with its technique mappings ordered by ttp id',
    roles: threatActorRoles.read,
    document: `query ($id: ID!) {
      threatActor(id: $id) {
        ${LIST_FIELDS} stixId description motivations attackModified createdAt updatedAt
        techniques { techniqueId ttpId name tactic statusGlobal procedure }
      }
    }`,
  },
];
