import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { team, type Team } from '../../../test/helpers/test-runs.ts';

const app = useTestApp();
let t: Team;

beforeAll(async () => {
  t = await team(app);
});

const ACTIONS = '{ alerts(limit: 5) { items { id status availableActions } } }';

describe('an alert offers the actions of the transition table', () => {
  it('open offers acknowledge, resolve and dismiss; acknowledged resolve and dismiss; resolved none', async () => {
    const rule = await app.graphql(
      'mutation ($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }',
      { input: { name: 'Coverage floor', ruleType: 'coverage_below', severity: 'high', parameters: { threshold: 100 } } },
      t.blue_lead.token,
    );
    expect(rule.errors).toBeUndefined();
    const evaluation = await app.graphql('mutation { evaluateAlerts { fired alertIds } }', {}, t.blue_lead.token);
    expect(evaluation.data.evaluateAlerts.fired).toBe(1);
    const [id] = evaluation.data.evaluateAlerts.alertIds as string[];

    const actions = async () =>
      (await app.graphql(ACTIONS, {}, t.viewer.token)).data.alerts.items.find((alert: { id: string }) => alert.id === id);
    expect(await actions()).toEqual({ id, status: 'open', availableActions: ['acknowledge', 'resolve', 'dismiss'] });
    await app.graphql('mutation ($id: UUID!) { acknowledgeAlert(id: $id) { id } }', { id }, t.red_lead.token);
    expect(await actions()).toEqual({ id, status: 'acknowledged', availableActions: ['resolve', 'dismiss'] });
    await app.graphql('mutation ($id: UUID!) { resolveAlert(id: $id) { id } }', { id }, t.red_lead.token);
    expect(await actions()).toEqual({ id, status: 'resolved', availableActions: [] });
  });
});
