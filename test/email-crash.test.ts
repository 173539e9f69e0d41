import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess, waitFor, type ServiceProcess } from './helpers/service-process.ts';
import { startSmtpServer, type TestSmtpServer } from './helpers/smtp.ts';

const TESTS = 6;
const ADMIN_EMAIL = 'admin@violet.example';
const VALIDATION_STEPS: [string, string, unknown?][] = [
  ['POST', 'start-execution'],
  ['POST', 'submit-red'],
  ['PATCH', 'blue', { detection_result: 'detected', blue_summary: 'Alert fired' }],
  ['POST', 'submit-blue'],
  ['POST', 'validate-red', { red_validation_status: 'approved' }],
  ['POST', 'validate-blue', { blue_validation_status: 'approved' }],
];

let smtp: TestSmtpServer;
let dataDir: string;
const started: ServiceProcess[] = [];
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  for (const service of started) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  await smtp?.close();
});

async function call(service: ServiceProcess, token: string, method: string, path: string, body?: unknown) {
  const answer = await service.api(method, path, token, body);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer;
}

/** The embedded service (PGlite, no Redis, jobs in memory) on `dataDir`, allowed to reach the local SMTP server. */
async function start() {
  const service = await startServiceProcess({
    DATA_DIR: dataDir,
    JWT_SECRET: 'embedded e-mail crash test secret, 32+ characters',
    SMTP_ALLOWED_HOSTS: `127.0.0.1:${smtp.port}`,
  });
  started.push(service);
  return service;
}

async function kill(service: ServiceProcess) {
  service.child.kill('SIGKILL');
  await service.exited;
}

describe('in the embedded mode, work queued in memory survives a SIGKILL', () => {
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'violet-email-crash-'));
  });
  // A failed test leaves its process running: the next one needs the data directory.
  afterEach(async () => {
    for (const service of started) if (service.child.exitCode === null) await kill(service);
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('every validated test has exactly one e-mail after the restart, though its sending was under way at the kill', async () => {
    const first = await start();
    const token = await first.login();
    const me = await call(first, token, 'GET', '/users/me');
    await call(first, token, 'PATCH', `/users/${me.body.id}`, { email: ADMIN_EMAIL });
    await call(first, token, 'PATCH', '/system/email-config', {
      enabled: true,
      smtp_host: '127.0.0.1',
      smtp_port: smtp.port,
      smtp_security: 'none',
      from_address: 'notices@violet.example',
    });
    const technique = await call(first, token, 'POST', '/techniques', { ttp_id: 'T9902', name: 'Mail', tactic: 'Execution' });

    // Every attempt is refused for now (4xx): each e-mail waits in memory for its retry when the process dies.
    smtp.reject(451, 'Greylisted, try again later', 1_000);
    const testIds: string[] = [];
    for (let index = 0; index < TESTS; index++) {
      const test = await call(first, token, 'POST', '/tests', { name: `Mail ${index}`, technique_id: technique.body.id });
      for (const [method, step, body] of VALIDATION_STEPS) await call(first, token, method, `/tests/${test.body.id}/${step}`, body);
      testIds.push(test.body.id);
    }
    await waitFor('a first attempt of every e-mail', Date.now() + 30_000, async () => (smtp.refused >= TESTS ? true : undefined));
    expect(smtp.received).toEqual([]);
    await sleep(300);
    await kill(first);
    smtp.accept();

    const second = await start();
    const restarted = Date.now();
    const mailsOf = (id: string) => smtp.to(ADMIN_EMAIL).filter((mail) => mail.text.includes(id));
    await waitFor('an e-mail for every validated test', Date.now() + 150_000, async () =>
      testIds.every((id) => mailsOf(id).length > 0) ? true : undefined,
    ).catch(() => undefined);
    const recoveryMs = Date.now() - restarted;
    await sleep(3_000);
    expect(testIds.map((id) => mailsOf(id).length)).toEqual(testIds.map(() => 1));
    expect(mailsOf(testIds[0])[0].subject).toBe('Test validated: Mail 0 (T9902)');
    console.info(`${TESTS} e-mails refused before the kill; all sent once, ${recoveryMs} ms after the restart`);
    await kill(second);
  }, 300_000);

  it('an alert evaluation queued by an event and cut by the kill runs soon after the restart', async () => {
    const first = await start();
    const token = await first.login();
    await call(first, token, 'POST', '/techniques', { ttp_id: 'T9903', name: 'Alert', tactic: 'Execution' });
    const rule = await call(first, token, 'POST', '/alerts/rules', {
      name: 'Coverage under 100',
      rule_type: 'coverage_below',
      severity: 'low',
      parameters: { threshold: 100 },
    });
    const lastEvaluated = async (service: ServiceProcess, bearer: string) =>
      (await call(service, bearer, 'GET', `/alerts/rules/${rule.body.id}`)).body.last_evaluated_at as string | null;
    const before = await lastEvaluated(first, token);
    // Early in a 5-second evaluation window, so the evaluation the change queues is still waiting at the kill.
    await waitFor('the start of an evaluation window', Date.now() + 10_000, async () => (Date.now() % 5_000 < 300 ? true : undefined), 20);
    await call(first, token, 'PATCH', '/techniques/T9903', { status_global: 'partial' });
    await sleep(1_500);
    expect(await lastEvaluated(first, token)).toBe(before);
    await kill(first);

    const second = await start();
    const restarted = Date.now();
    const admin = await second.login();
    const evaluated = await waitFor('the evaluation after the restart', Date.now() + 20_000, async () => {
      const last = await lastEvaluated(second, admin);
      return last !== before ? last : undefined;
    });
    expect(new Date(evaluated ?? 0).getTime()).toBeGreaterThan(restarted - 1_000);
    await kill(second);
  }, 300_000);
});
