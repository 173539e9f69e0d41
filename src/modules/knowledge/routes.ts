import { body, type Route } from '../../../rest-adapter/types.ts';
import { knowledgeRoles } from './permissions.ts';
import { PlaybookType, Severity } from '../../generated/prisma/enums.ts';
import { PLAYBOOK_VERSION_PAGE } from './playbooks.ts';

const PLAYBOOK_SUMMARY_FIELDS = `id techniqueId ttpId type title tags version restoredFrom
  createdById updatedById createdAt updatedAt`;
/** The detail: content, and the versions list without their content (GET …/versions has it). */
const PLAYBOOK_FIELDS = `${PLAYBOOK_SUMMARY_FIELDS} content
  versions(limit: ${PLAYBOOK_VERSION_PAGE.maxLimit}) { version type title restoredFrom authorId authoredAt replacedAt }`;
const VERSION_FIELDS = 'id version techniqueId type title content tags restoredFrom authorId authoredAt replacedAt';
const LESSON_FIELDS = `id techniqueId ttpId testId campaignId severity title whatHappened rootCause recommendations
  createdById createdAt updatedAt`;

const tag = 'Knowledge';

export const knowledgeRoutes: Route[] = [
  {
    method: 'GET',
    path: '/knowledge/playbooks',
    tag,
    summary:
      'List playbooks (filters technique: uuid or ttp id, type, search: full text over title, tags and content, ranked with title matches first); items omit content',
    roles: knowledgeRoles.read,
    document: `query ($technique: String, $type: PlaybookType, $search: String, $offset: Int, $limit: Int) {
      playbooks(filter: { technique: $technique, type: $type, search: $search }, offset: $offset, limit: $limit) {
        items { ${PLAYBOOK_SUMMARY_FIELDS} } total offset limit
      }
    }`,
  },
  {
    method: 'POST',
    path: '/knowledge/playbooks',
    tag,
    summary: 'Create a playbook at version 1 (body technique_id, type, title; optional content (Markdown), tags)',
    roles: knowledgeRoles.write,
    status: 201,
    document: `mutation ($input: CreatePlaybookInput!) { createPlaybook(input: $input) { ${PLAYBOOK_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/knowledge/playbooks/:id',
    tag,
    summary: 'One playbook with its content and its versions list (newest first)',
    roles: knowledgeRoles.read,
    document: `query ($id: UUID!) { playbook(id: $id) { ${PLAYBOOK_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/knowledge/playbooks/:id',
    tag,
    summary:
      'Change a playbook (body version: the version read, and any of technique_id, type, title, content, tags); keeps the replaced state as a version; a stale version answers 409',
    roles: knowledgeRoles.write,
    document: `mutation ($id: UUID!, $input: UpdatePlaybookInput!) { updatePlaybook(id: $id, input: $input) { ${PLAYBOOK_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'DELETE',
    path: '/knowledge/playbooks/:id',
    tag,
    summary: 'Delete a playbook and its versions',
    roles: knowledgeRoles.write,
    status: 204,
    document: `mutation ($id: UUID!) { deletePlaybook(id: $id) { id } }`,
  },
  {
    method: 'GET',
    path: '/knowledge/playbooks/:id/versions',
    tag,
    summary: 'The earlier versions of a playbook with their content, newest first',
    roles: knowledgeRoles.read,
    document: `query ($id: UUID!, $offset: Int, $limit: Int) {
      playbookVersions(id: $id, offset: $offset, limit: $limit) { items { ${VERSION_FIELDS} } total offset limit }
    }`,
  },
  {
    method: 'POST',
    path: '/knowledge/playbooks/:id/restore/:version',
    tag,
    summary: "Make an earlier version's content current again, as a new version (no body)",
    roles: knowledgeRoles.write,
    document: `mutation ($id: UUID!, $version: Int!) { restorePlaybookVersion(id: $id, version: $version) { ${PLAYBOOK_FIELDS} } }`,
  },
  {
    method: 'GET',
    path: '/knowledge/lessons',
    tag,
    summary:
      'List lessons learned (filters severity, technique: uuid or ttp id, test_id, campaign_id, search: full text, ranked with title matches first)',
    roles: knowledgeRoles.read,
    document: `query ($technique: String, $severity: LessonSeverity, $testId: UUID, $campaignId: UUID, $search: String, $offset: Int, $limit: Int) {
      lessons(filter: { technique: $technique, severity: $severity, testId: $testId, campaignId: $campaignId, search: $search }, offset: $offset, limit: $limit) {
        items { ${LESSON_FIELDS} } total offset limit
      }
    }`,
  },
  {
    method: 'POST',
    path: '/knowledge/lessons',
    tag,
    summary:
      'Record a lesson learned (body what_happened, root_cause; technique_id unless test_id is given; optional recommendations, severity (default medium), title, campaign_id)',
    roles: knowledgeRoles.write,
    status: 201,
    document: `mutation ($input: CreateLessonInput!) { createLesson(input: $input) { ${LESSON_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/knowledge/lessons/:id',
    tag,
    summary: 'One lesson learned',
    roles: knowledgeRoles.read,
    document: `query ($id: UUID!) { lesson(id: $id) { ${LESSON_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/knowledge/lessons/:id',
    tag,
    summary: 'Change a lesson learned (any of its fields; test_id or campaign_id null detaches it)',
    roles: knowledgeRoles.write,
    document: `mutation ($id: UUID!, $input: UpdateLessonInput!) { updateLesson(id: $id, input: $input) { ${LESSON_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'DELETE',
    path: '/knowledge/lessons/:id',
    tag,
    summary: 'Delete a lesson learned',
    roles: knowledgeRoles.write,
    status: 204,
    document: `mutation ($id: UUID!) { deleteLesson(id: $id) { id } }`,
  },
  {
    method: 'GET',
    path: '/knowledge/stats',
    tag,
    summary: 'Playbooks by type and lessons learned by severity (every type and severity, zeros included)',
    roles: knowledgeRoles.read,
    document: `query {
      knowledgeStats {
        playbooks { total byType { ${Object.values(PlaybookType).join(' ')} } }
        lessons { total bySeverity { ${Object.values(Severity).join(' ')} } }
      }
    }`,
  },
];
