import { path, query, type Route } from '../../../rest-adapter/types.ts';
import { threatActorRoles } from './permissions.ts';

const LIST_FIELDS = `id externalId name aliases motivation country techniqueCount revoked deprecated`;

export const threatActorsRoutes: Route[] = [
  {
    method: 'GET',
    path: '/threat-actors',
    tag: 'Threat actors',
    summary: 'List threat actors (filters country, motivation, search, include_deprecated; offset default 0, limit default 50, max 200)',
    roles: threatActorRoles.read,
    document: `query ($country: String, $motivation: String, $search: String, $includeDeprecated: Boolean, $offset: Int, $limit: Int) {
      threatActors(filter: { country: $country, motivation: $motivation, search: $search, includeDeprecated: $includeDeprecated }, offset: $offset, limit: $limit) {
        items { ${LIST_FIELDS} } total offset limit
      }
    }`,
    variables: {
      country: query('country'),
      motivation: query('motivation'),
      search: query('search'),
      includeDeprecated: query('include_deprecated'),
      offset: query('offset'),
      limit: query('limit'),
    },
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
    variables: { id: path('id') },
  },
];
