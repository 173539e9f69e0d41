import { Octokit } from '@octokit/rest';
import { Version2Client, Version3Client } from 'jira.js';
import type { TrackerKind } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { trackerErrorOf, trackerFetch } from './http.ts';

/** What Violet files: the tracker client turns it into the tracker's own fields. */
export interface IssueDraft {
  title: string;
  /** Plain text, paragraphs separated by blank lines. */
  body: string;
  labels: string[];
  /** The tracker's priority name (Jira), or null. */
  priority: string | null;
  assigneeAccountId: string | null;
}

/** An issue as read back: its status in the tracker's words, and the facts the status mapping reads. */
export interface IssueState {
  /** Jira: the status name (`Done`); GitHub: `open`, or `closed:<state_reason>`. */
  status: string;
  /** Jira status category key (`new`, `indeterminate`, `done`); GitHub `open`/`closed`. */
  category: string;
  /** Jira resolution name, null when unresolved. */
  resolution: string | null;
  assigneeAccountId: string | null;
}

export interface TrackerClient {
  createIssue(draft: IssueDraft): Promise<{ key: string; url: string }>;
  getIssue(key: string): Promise<IssueState>;
  /** Moves a closed issue back to an open status (Jira: a transition into a to-do status; GitHub: state open). */
  reopen(key: string): Promise<void>;
  comment(key: string, text: string): Promise<void>;
}

export interface ConnectionSecrets {
  kind: TrackerKind;
  baseUrl: string;
  project: string;
  issueType: string;
  username: string | null;
  credential: string;
}

/** Atlassian Document Format for plain paragraphs (REST v3 takes rich text only in ADF). */
const adf = (text: string) => ({
  type: 'doc' as const,
  version: 1 as const,
  content: text
    .split(/\n{2,}/)
    .filter(Boolean)
    .map((paragraph) => ({ type: 'paragraph', content: [{ type: 'text', text: paragraph }] })),
});

/** Wraps every call so that only a TrackerError in plain words leaves the client (library errors can carry headers). */
function guarded<T extends object>(client: T, timeoutMs: number): T {
  const wrapped = {} as T;
  for (const key of Object.keys(client) as (keyof T)[]) {
    const method = client[key] as unknown as (...args: unknown[]) => Promise<unknown>;
    (wrapped as Record<keyof T, unknown>)[key] = async (...args: unknown[]) => {
      try {
        return await method(...args);
      } catch (error) {
        throw trackerErrorOf(error, timeoutMs);
      }
    };
  }
  return wrapped;
}

function jiraClient(services: Services, connection: ConnectionSecrets): TrackerClient {
  const cloud = connection.kind === 'jira_cloud';
  const host = connection.baseUrl.replace(/\/+$/, '');
  // Jira Cloud: basic auth with the account e-mail and an API token. Data Center: basic auth with a user name
  // and password, or a personal access token as a bearer token when no user name is set.
  const basic = connection.username ? { basic: { email: connection.username, apiToken: connection.credential } } : undefined;
  const config = {
    host,
    ...(basic ? { authentication: basic } : {}),
    baseRequestConfig: {
      adapter: 'fetch',
      env: { fetch: trackerFetch(services) },
      maxRedirects: 0,
      headers: basic ? {} : { Authorization: `Bearer ${connection.credential}` },
    },
  };
  const v3 = cloud ? new Version3Client(config) : null;
  const v2 = cloud ? null : new Version2Client(config);
  // Both versions share these calls' shapes; the v3 typings stand for both.
  const issues = (v3 ?? v2) as Version3Client;
  return {
    async createIssue(draft) {
      const fields = {
        project: { key: connection.project },
        issuetype: { name: connection.issueType },
        summary: draft.title,
        labels: draft.labels.map((label) => label.replace(/\s+/g, '-')),
        ...(draft.priority ? { priority: { name: draft.priority } } : {}),
        ...(draft.assigneeAccountId
          ? { assignee: cloud ? { accountId: draft.assigneeAccountId } : { name: draft.assigneeAccountId } }
          : {}),
      };
      const created = v3
        ? await v3.issues.createIssue({ fields: { ...fields, description: adf(draft.body) } } as never)
        : await v2!.issues.createIssue({ fields: { ...fields, description: draft.body } } as never);
      return { key: created.key, url: `${host}/browse/${created.key}` };
    },
    async getIssue(key) {
      const issue = await issues.issues.getIssue({ issueIdOrKey: key, fields: ['status', 'resolution', 'assignee'] });
      const fields = issue.fields as unknown as {
        status?: { name?: string; statusCategory?: { key?: string } };
        resolution?: { name?: string } | null;
        assignee?: { accountId?: string; name?: string } | null;
      };
      return {
        status: fields.status?.name ?? 'unknown',
        category: fields.status?.statusCategory?.key ?? 'new',
        resolution: fields.resolution?.name ?? null,
        assigneeAccountId: (cloud ? fields.assignee?.accountId : fields.assignee?.name) ?? null,
      };
    },
    async reopen(key) {
      const { transitions = [] } = await issues.issues.getTransitions({ issueIdOrKey: key });
      const categoryOf = (transition: (typeof transitions)[number]) => transition.to?.statusCategory?.key;
      const target =
        transitions.find((transition) => categoryOf(transition) === 'new') ??
        transitions.find((transition) => categoryOf(transition) !== 'done');
      if (!target?.id) throw new Error('no transition leads out of a done status');
      await issues.issues.doTransition({ issueIdOrKey: key, transition: { id: target.id } });
    },
    async comment(key, text) {
      if (v3) await v3.issueComments.addComment({ issueIdOrKey: key, comment: adf(text) } as never);
      else await v2!.issueComments.addComment({ issueIdOrKey: key, comment: text } as never);
    },
  };
}

function githubClient(services: Services, connection: ConnectionSecrets): TrackerClient {
  const [owner, repo] = connection.project.split('/');
  const octokit = new Octokit({
    auth: connection.credential,
    baseUrl: connection.baseUrl.replace(/\/+$/, ''),
    userAgent: 'Violet-Tracker/1.0',
    request: { fetch: trackerFetch(services), redirect: 'manual' },
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  return {
    async createIssue(draft) {
      const { data } = await octokit.rest.issues.create({
        owner,
        repo,
        title: draft.title,
        body: draft.body,
        labels: draft.labels,
        ...(draft.assigneeAccountId ? { assignees: [draft.assigneeAccountId] } : {}),
      });
      return { key: String(data.number), url: data.html_url };
    },
    async getIssue(key) {
      const { data } = await octokit.rest.issues.get({ owner, repo, issue_number: Number(key) });
      return {
        status: data.state === 'closed' ? `closed:${data.state_reason ?? 'completed'}` : 'open',
        category: data.state,
        resolution: data.state_reason ?? null,
        assigneeAccountId: data.assignee?.login ?? null,
      };
    },
    async reopen(key) {
      await octokit.rest.issues.update({ owner, repo, issue_number: Number(key), state: 'open', state_reason: 'reopened' });
    },
    async comment(key, text) {
      await octokit.rest.issues.createComment({ owner, repo, issue_number: Number(key), body: text });
    },
  };
}

/** The client of one connection, every call through the guarded fetch and failing only with a TrackerError. */
export function clientFor(services: Services, connection: ConnectionSecrets): TrackerClient {
  const client = connection.kind === 'github' ? githubClient(services, connection) : jiraClient(services, connection);
  return guarded(client, services.config.TRACKER_TIMEOUT);
}
