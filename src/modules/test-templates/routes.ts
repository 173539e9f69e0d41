import type { Request } from 'express';
import type { Route } from '../../../rest-adapter/types.ts';
import { camelizeKeys } from '../../naming.ts';
import { ValidationError } from '../../errors.ts';
import { templateRoles } from './permissions.ts';

const TEMPLATE_FIELDS = `id name description ttpTechniqueId platform platforms severity source executor procedure
  cleanupCommand elevationRequired inputArguments toolUsed
  suggestedRemediation externalId isActive createdById
  testCount createdAt updatedAt`;

const CREATE = `mutation ($input: CreateTestTemplateInput!) { createTestTemplate(input: $input) { ${TEMPLATE_FIELDS} } }`;
const UPDATE = `mutation ($id: UUID!, $input: UpdateTestTemplateInput!) { updateTestTemplate(id: $id, input: $input) { ${TEMPLATE_FIELDS} } }`;
// Describes the PATCH body in the OpenAPI document, whose body is the first document's only variable; never executed.
const UPDATE_BODY =
  'mutation ($input: UpdateTestTemplateInput!) { updateTestTemplate(id: "00000000-0000-0000-0000-000000000000", input: $input) { id } }';

/**
 * The JSON body as GraphQL input: keys to camelCase, except inside input_arguments, whose keys are argument
 * names referenced as #{name} in the procedure and must stay as written.
 */
function templateInput(req: Request): Record<string, unknown> {
  const payload: unknown = req.body ?? {};
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new ValidationError(null, 'The request body must be a JSON object');
  const { input_arguments: inputArguments, ...fields } = payload as Record<string, unknown>;
  return { ...(camelizeKeys(fields) as Record<string, unknown>), ...(inputArguments !== undefined ? { inputArguments } : {}) };
}

// /test-templates/stats comes before /test-templates/:id, which would otherwise take "stats" for an id.
export const testTemplatesRoutes: Route[] = [
  {
    method: 'GET',
    path: '/test-templates',
    tag: 'Test templates',
    summary: 'List templates (filters source, platform, severity, search, ttp_technique_id, is_active)',
    roles: templateRoles.read,
    document: `query ($source: String, $platform: String, $severity: TemplateSeverity, $search: String, $ttpTechniqueId: String, $isActive: Boolean, $offset: Int, $limit: Int) {
      testTemplates(
        filter: { source: $source, platform: $platform, severity: $severity, search: $search, ttpTechniqueId: $ttpTechniqueId, isActive: $isActive }
        offset: $offset
        limit: $limit
      ) { items { ${TEMPLATE_FIELDS} } total offset limit }
    }`,
  },
  {
    method: 'POST',
    path: '/test-templates',
    tag: 'Test templates',
    summary: 'Create a template from scratch (name required) or from a test (test_id), including suggested_remediation',
    roles: templateRoles.create,
    status: 201,
    requestType: 'application/json',
    documents: [CREATE],
    async handle(req, res, { execute }) {
      res.status(201).json(await execute(CREATE, { input: templateInput(req) }));
    },
  },
  {
    method: 'GET',
    path: '/test-templates/stats',
    tag: 'Test templates',
    summary: 'Totals: total, active, inactive, by_source, by_platform',
    roles: templateRoles.stats,
    document: `query { testTemplateStats {
      total active inactive bySource { source: key count } byPlatform { platform: key count }
    } }`,
  },
  {
    method: 'POST',
    path: '/test-templates/:id/toggle-active',
    tag: 'Test templates',
    summary: 'Flip the active flag of a template',
    roles: templateRoles.toggleActive,
    document: `mutation ($id: UUID!) { toggleTestTemplateActive(id: $id) { ${TEMPLATE_FIELDS} } }`,
  },
  {
    method: 'GET',
    path: '/test-templates/:id',
    tag: 'Test templates',
    summary: 'One template',
    roles: templateRoles.read,
    document: `query ($id: UUID!) { testTemplate(id: $id) { ${TEMPLATE_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/test-templates/:id',
    tag: 'Test templates',
    summary: 'Update a template (any field of the create body but test_id)',
    roles: templateRoles.update,
    requestType: 'application/json',
    documents: [UPDATE_BODY, UPDATE],
    async handle(req, res, { execute }) {
      res.json(await execute(UPDATE, { id: req.params.id, input: templateInput(req) }));
    },
  },
  {
    method: 'DELETE',
    path: '/test-templates/:id',
    tag: 'Test templates',
    summary: 'Delete a template (tests made from it keep their data)',
    roles: templateRoles.delete,
    status: 204,
    document: 'mutation ($id: UUID!) { deleteTestTemplate(id: $id) }',
  },
];
