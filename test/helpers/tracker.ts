import { expect } from 'vitest';
import type { FakeJira } from '../fixtures/tracker-servers.ts';
import type { TestApp } from './app.ts';
import type { Member } from './test-runs.ts';

/** The Jira account and project of the tracker tests: start the fake Jira with them. */
export const JIRA_ACCOUNT = 'lead@example.com';
export const JIRA_PROJECT = 'SEC';

/** The body of POST /tracker/connections for Jira Cloud project SEC at `jira`, signed in with the API token `credential`. */
export function jiraCloudConnection(jira: FakeJira, credential: string, extra: Record<string, unknown> = {}) {
  return { name: 'Jira SEC', kind: 'jira_cloud', base_url: jira.url, project: JIRA_PROJECT, username: JIRA_ACCOUNT, credential, ...extra };
}

/** POST /tracker/connections, expecting 201. */
export async function createTrackerConnection(app: TestApp, admin: Member, body: Record<string, unknown>) {
  const response = await app.api('POST', '/tracker/connections', { token: admin.token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Record<string, any>;
}
