import { builder } from '../../graphql/builder.ts';
import { TrackerKind, TrackerLinkStatus, TrackerSubject } from '../../generated/prisma/enums.ts';
import { trackerLinkLifecycle } from './lifecycle.ts';

export const TrackerKindEnum = builder.enumType(TrackerKind, {
  name: 'TrackerKind',
  description: 'jira_cloud: Jira Cloud REST v3; jira_dc: Jira Data Center REST v2; github: GitHub Issues.',
});
export const TrackerSubjectEnum = builder.enumType(TrackerSubject, {
  name: 'TrackerSubject',
  description: 'What an issue was opened for: a test remediation, a fired alert, or a revalidation-queue entry.',
});
export const TrackerLinkStatusEnum = builder.enumType(TrackerLinkStatus, {
  name: 'TrackerIssueStatus',
  description:
    'pending: not yet filed with the tracker (retried); open; fixed: closed as done (a retest was created); wont_fix: closed as not planned; reopened.',
});

export const TrackerConnectionType = builder.prismaObject('TrackerConnection', {
  description: 'An issue-tracker connection (admins only). Its credential is never shown; its webhook secret only as `***`.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    kind: t.expose('kind', { type: TrackerKindEnum }),
    baseUrl: t.exposeString('baseUrl', { description: 'Jira site URL, or the GitHub API URL (https://api.github.com).' }),
    project: t.exposeString('project', { description: 'Jira project key, or GitHub owner/repo.' }),
    issueType: t.exposeString('issueType'),
    username: t.exposeString('username', { nullable: true, description: 'Jira basic-auth user (Cloud: e-mail); null: bearer token.' }),
    credential: t.string({ description: 'Always `***`: the token is write-only.', resolve: () => '***' }),
    webhookSecret: t.string({
      nullable: true,
      description: 'Masked: `***` when inbound webhooks are verified, null when none is set.',
      select: { webhookSecretSealed: true },
      resolve: (connection) => (connection.webhookSecretSealed ? '***' : null),
    }),
    fieldMapping: t.expose('fieldMapping', { type: 'JSON', description: '`priorities` (risk level → priority name) and extra `labels`.' }),
    statusMapping: t.expose('statusMapping', {
      type: 'JSON',
      description: 'Tracker status name (GitHub `closed:<reason>`) → remediation status.',
    }),
    isActive: t.exposeBoolean('isActive'),
    lastError: t.exposeString('lastError', {
      nullable: true,
      description: 'The last failure talking to the tracker, in plain words; null after a success.',
    }),
    lastErrorAt: t.expose('lastErrorAt', { type: 'DateTime', nullable: true }),
    lastSyncAt: t.expose('lastSyncAt', { type: 'DateTime', nullable: true }),
    consecutiveFailures: t.exposeInt('consecutiveFailures'),
    createdBy: t.exposeID('createdById', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const TrackerIssueType = builder.prismaObject('TrackerLink', {
  name: 'TrackerIssue',
  description: 'A tracker issue linked to a test remediation, an alert or a revalidation-queue entry: one per subject.',
  fields: (t) => ({
    id: t.exposeID('id'),
    connectionId: t.exposeID('connectionId'),
    subjectType: t.expose('subjectType', { type: TrackerSubjectEnum }),
    subjectId: t.exposeID('subjectId'),
    status: t.expose('status', { type: TrackerLinkStatusEnum }),
    validTransitions: t.stringList({
      description: 'Statuses the link can move to next (the tracker or a retest moves it).',
      resolve: (link) => trackerLinkLifecycle.validTransitions(link.status),
    }),
    issueKey: t.exposeString('issueKey', { nullable: true, description: 'Jira issue key or GitHub issue number; null while pending.' }),
    issueUrl: t.exposeString('issueUrl', { nullable: true }),
    trackerStatus: t.exposeString('trackerStatus', {
      nullable: true,
      description: "The status in the tracker's words (`In Progress`, `closed:completed`).",
    }),
    assigneeAccountId: t.exposeString('assigneeAccountId', { nullable: true }),
    retestId: t.exposeID('retestId', { nullable: true, description: 'The retest created when the issue was last closed as fixed.' }),
    lastError: t.exposeString('lastError', {
      nullable: true,
      description: 'Why the last call to the tracker failed (retried with backoff).',
    }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    lastSyncedAt: t.expose('lastSyncedAt', { type: 'DateTime', nullable: true }),
    fixedAt: t.expose('fixedAt', { type: 'DateTime', nullable: true }),
    reopenedAt: t.expose('reopenedAt', { type: 'DateTime', nullable: true }),
    closedAt: t.expose('closedAt', { type: 'DateTime', nullable: true }),
    createdBy: t.exposeID('createdById', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const TrackerIssueResult = builder.objectRef<{ created: boolean; linkId: string }>('TrackerIssueResult');

export const CreateTrackerConnectionInput = builder.inputType('CreateTrackerConnectionInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    kind: t.field({ type: TrackerKindEnum, required: true }),
    baseUrl: t.string({ required: true, description: 'http(s); public addresses only unless its host is in TRACKER_ALLOWED_HOSTS.' }),
    project: t.string({ required: true, description: 'Jira project key (SEC) or GitHub owner/repo.' }),
    issueType: t.string({ required: false, description: 'Jira issue type name (default Task).' }),
    username: t.string({
      required: false,
      description: 'Jira: account e-mail (Cloud) or user name (Data Center); omit for a bearer token.',
    }),
    credential: t.string({ required: true, description: 'API token or personal access token: sealed at rest, never shown.' }),
    webhookSecret: t.string({ required: false, description: 'Secret of inbound tracker webhooks (16+ characters).' }),
    fieldMapping: t.field({ type: 'JSON', required: false }),
    statusMapping: t.field({ type: 'JSON', required: false }),
    isActive: t.boolean({ required: false }),
  }),
});

export const UpdateTrackerConnectionInput = builder.inputType('UpdateTrackerConnectionInput', {
  fields: (t) => ({
    name: t.string({ required: false }),
    kind: t.field({ type: TrackerKindEnum, required: false }),
    baseUrl: t.string({ required: false }),
    project: t.string({ required: false }),
    issueType: t.string({ required: false }),
    username: t.string({ required: false }),
    credential: t.string({ required: false, description: 'A new token (clears the last error).' }),
    webhookSecret: t.string({ required: false, description: 'A new secret; null removes it (inbound webhooks are then refused).' }),
    fieldMapping: t.field({ type: 'JSON', required: false }),
    statusMapping: t.field({ type: 'JSON', required: false }),
    isActive: t.boolean({ required: false }),
  }),
});

export const CreateTrackerIssueInput = builder.inputType('CreateTrackerIssueInput', {
  fields: (t) => ({
    subjectType: t.field({ type: TrackerSubjectEnum, required: true }),
    subjectId: t.field({
      type: 'UUID',
      required: true,
      description: 'The test (rejected, or not/partially detected), alert or revalidation-queue entry.',
    }),
    connectionId: t.field({ type: 'UUID', required: false, description: 'Default: the oldest active connection.' }),
  }),
});

export const TrackerSyncResult = builder.objectRef<{ detail: string }>('TrackerSyncResult').implement({
  fields: (t) => ({ detail: t.exposeString('detail') }),
});
