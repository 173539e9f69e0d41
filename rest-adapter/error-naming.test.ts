import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/helpers/app.ts';
import { technique, useTeam } from '../test/helpers/test-runs.ts';

const app = useTestApp();
const t = useTeam(app);
let techniqueId: string;

beforeAll(async () => {
  techniqueId = (await technique(app)).id;
});

/** One bad input, asked both ways: each API names the field in its own vocabulary. */
describe('validation errors name fields as the caller spells them', () => {
  it('a domain rule: REST says assigned_to, GraphQL says assignedTo', async () => {
    const nobody = randomUUID();
    const rest = await app.api('POST', '/tests', {
      token: t.red_lead.token,
      body: { technique_id: techniqueId, name: 'Assigned to nobody', assigned_to: nobody },
    });
    expect(rest).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'assigned_to', detail: 'assigned_to: no active user with this id' },
    });
    const graphql = await app.graphql(
      'mutation ($input: CreateTestInput!) { createTest(input: $input) { id } }',
      { input: { techniqueId, name: 'Assigned to nobody', assignedTo: nobody } },
      t.red_lead.token,
    );
    expect(graphql.errors?.[0]).toMatchObject({
      message: 'assignedTo: no active user with this id',
      extensions: { code: 'VALIDATION_ERROR', field: 'assignedTo' },
    });
  });

  it('a schema check on a nested input path: REST says end_date, GraphQL says endDate', async () => {
    const campaign = await app.api('POST', '/campaigns', { token: t.red_lead.token, body: { name: 'Naming', type: 'regression' } });
    const period = { start_date: '2030-01-01T00:00:00Z', end_date: '2029-01-01T00:00:00Z' };
    const rest = await app.api('PATCH', `/campaigns/${campaign.body.id}/schedule`, { token: t.red_lead.token, body: period });
    expect(rest).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'end_date' } });
    expect(rest.body.detail).toMatch(/^end_date: /);
    const graphql = await app.graphql(
      'mutation ($id: UUID!, $input: CampaignScheduleInput!) { scheduleCampaign(id: $id, input: $input) { id } }',
      { id: campaign.body.id, input: { startDate: period.start_date, endDate: period.end_date } },
      t.red_lead.token,
    );
    expect(graphql.errors?.[0]).toMatchObject({ extensions: { code: 'VALIDATION_ERROR', field: 'endDate' } });
    expect(graphql.errors?.[0].message).toMatch(/^endDate: /);
  });
});
