import { body, type Route } from '../../../rest-adapter/types.ts';
import { TECHNIQUE_KNOWLEDGE_PAGE, TECHNIQUE_TEST_PAGE } from './service.ts';
import { techniqueRoles } from './permissions.ts';

/** The detail's knowledge lists (fields the knowledge module adds to a technique), up to the page maximum. */
const TECHNIQUE_KNOWLEDGE_FIELDS = `
  playbooks(limit: ${TECHNIQUE_KNOWLEDGE_PAGE.maxLimit}) { id type title tags version updatedAt }
  lessons(limit: ${TECHNIQUE_KNOWLEDGE_PAGE.maxLimit}) { id severity title testId campaignId createdAt }`;

const TECHNIQUE_FIELDS = `id ttpId name description tactic platforms statusGlobal
  reviewRequired isCustom createdAt updatedAt
  tactics isSubtechnique parentTtpId stixId attackVersion
  attackModified revoked revokedByTtpId deprecated url`;

/** The single read lists the technique's tests (the spec's `tests` field), oldest first, up to the page maximum. */
const TECHNIQUE_TESTS = `tests(limit: ${TECHNIQUE_TEST_PAGE.maxLimit}) { id name platform state detectionResult executionDate
  campaignId createdById createdAt updatedAt }`;

export const techniqueRoutes: Route[] = [
  {
    method: 'GET',
    path: '/techniques',
    tag: 'Techniques',
    summary:
      'List techniques (filters: tactic, matching any tactic of a technique by name, short name or TA id; status or coverage_status; review_required; platform; search; include_deprecated=true adds revoked and deprecated ones)',
    roles: techniqueRoles.read,
    document: `query ($tactic: String, $status: CoverageStatus, $coverageStatus: CoverageStatus, $reviewRequired: Boolean, $platform: String, $search: String, $includeDeprecated: Boolean) {
      techniques(filter: { tactic: $tactic, status: $status, coverageStatus: $coverageStatus, reviewRequired: $reviewRequired, platform: $platform, search: $search, includeDeprecated: $includeDeprecated }) {
        id ttpId name tactic tactics statusGlobal platforms reviewRequired
        isCustom isSubtechnique parentTtpId revoked deprecated
      }
    }`,
  },
  {
    method: 'GET',
    path: '/techniques/:ttp_id',
    tag: 'Techniques',
    summary: 'One technique with its tests, playbooks and lessons learned',
    roles: techniqueRoles.read,
    document: `query ($ttpId: String!) { technique(ttpId: $ttpId) { ${TECHNIQUE_FIELDS} ${TECHNIQUE_TESTS} ${TECHNIQUE_KNOWLEDGE_FIELDS} } }`,
  },
  {
    method: 'POST',
    path: '/techniques',
    tag: 'Techniques',
    summary: 'Create a custom technique',
    roles: techniqueRoles.create,
    status: 201,
    document: `mutation ($input: CreateTechniqueInput!) { createTechnique(input: $input) { ${TECHNIQUE_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'PATCH',
    path: '/techniques/:ttp_id',
    tag: 'Techniques',
    summary: 'Update a technique',
    roles: techniqueRoles.update,
    document: `mutation ($ttpId: String!, $input: UpdateTechniqueInput!) { updateTechnique(ttpId: $ttpId, input: $input) { ${TECHNIQUE_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'PATCH',
    path: '/techniques/:ttp_id/review',
    tag: 'Techniques',
    summary: 'Mark the technique reviewed (optional body review_required: true flags it for review instead)',
    roles: techniqueRoles.review,
    document: `mutation ($ttpId: String!, $reviewRequired: Boolean) { reviewTechnique(ttpId: $ttpId, reviewRequired: $reviewRequired) { ${TECHNIQUE_FIELDS} } }`,
  },
];
