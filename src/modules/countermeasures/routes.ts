import type { Route } from '../../../rest-adapter/types.ts';
import { countermeasureRoles } from './permissions.ts';

const LIST_FIELDS = `id d3fendId name tactic parent topLevel techniqueCount`;

export const countermeasuresRoutes: Route[] = [
  {
    method: 'GET',
    path: '/countermeasures',
    tag: 'Countermeasures',
    summary: 'List D3FEND countermeasures (filters tactic, search, ttp_id)',
    roles: countermeasureRoles.read,
    document: `query ($tactic: String, $search: String, $ttpId: String, $offset: Int, $limit: Int) {
      countermeasures(filter: { tactic: $tactic, search: $search, ttpId: $ttpId }, offset: $offset, limit: $limit) {
        items { ${LIST_FIELDS} } total offset limit
      }
    }`,
  },
  {
    method: 'GET',
    path: '/countermeasures/:id',
    tag: 'Countermeasures',
    summary: 'One countermeasure by uuid or D3FEND id (D3-AL), with its ATT&CK technique mappings ordered by ATT&CK id',
    roles: countermeasureRoles.read,
    document: `query ($id: ID!) {
      countermeasure(id: $id) {
        ${LIST_FIELDS} definition updatedAt
        techniques {
          attackId inCatalog techniqueId techniqueName
          statusGlobal revoked deprecated details
        }
      }
    }`,
  },
  {
    method: 'GET',
    path: '/techniques/:ttp_id/countermeasures',
    tag: 'Countermeasures',
    summary: 'The D3FEND countermeasures of a catalog technique, by D3FEND id, with the artifact paths linking them',
    roles: countermeasureRoles.read,
    document: `query ($ttpId: String!) {
      techniqueCountermeasures(ttpId: $ttpId) {
        id d3fendId name tactic parent topLevel attackId details
      }
    }`,
  },
];
