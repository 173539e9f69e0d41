import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { expect } from 'vitest';
import { madeBeforeAll, type TestApp } from './app.ts';
import type { Member } from './test-runs.ts';

const layerSchema = JSON.parse(readFileSync(new URL('../fixtures/navigator-layer-4.5.schema.json', import.meta.url), 'utf8'));
const validateLayer = new Ajv({ allErrors: true }).compile(layerSchema);

/** Asserts that `layer` is a valid ATT&CK Navigator 4.5 layer and returns it. */
export function validLayer(layer: any) {
  expect(validateLayer(layer), JSON.stringify(validateLayer.errors)).toBe(true);
  expect(layer.gradient.maxValue).toBeGreaterThan(layer.gradient.minValue);
  return layer;
}

/** The techniques of the attack-path tests, with their tactics (ATT&CK short names). */
export const PATH_TECHNIQUES = [
  { ttpId: 'T1566', name: 'Phishing', tactics: ['initial-access'] },
  { ttpId: 'T1059', name: 'Command and Scripting Interpreter', tactics: ['execution'] },
  { ttpId: 'T1059.001', name: 'PowerShell', tactics: ['execution'], parent: 'T1059' },
  { ttpId: 'T1003', name: 'OS Credential Dumping', tactics: ['credential-access'] },
  { ttpId: 'T1021', name: 'Remote Services', tactics: ['lateral-movement'] },
  { ttpId: 'T1041', name: 'Exfiltration Over C2 Channel', tactics: ['exfiltration'] },
  { ttpId: 'T1099', name: 'Timestomp', tactics: ['defense-evasion'], revoked: true },
  { ttpId: 'CUSTOM-7', name: 'In-house backdoor', tactics: [], custom: true },
] as const;

const TACTICS = [
  ['TA0001', 'initial-access', 'Initial Access'],
  ['TA0002', 'execution', 'Execution'],
  ['TA0005', 'defense-evasion', 'Defense Evasion'],
  ['TA0006', 'credential-access', 'Credential Access'],
  ['TA0008', 'lateral-movement', 'Lateral Movement'],
  ['TA0010', 'exfiltration', 'Exfiltration'],
] as const;

/** Writes the tactics and techniques above; answers the technique ids by ttp id. */
export async function seedPathCatalog(app: TestApp): Promise<Record<string, string>> {
  const db = app.services.prisma;
  await db.tactic.createMany({
    data: TACTICS.map(([externalId, shortName, name], index) => ({ externalId, shortName, name, matrixOrder: index + 1 })),
  });
  const ids: Record<string, string> = {};
  for (const technique of PATH_TECHNIQUES) {
    const custom = 'custom' in technique;
    const row = await db.technique.create({
      data: {
        ttpId: technique.ttpId,
        name: technique.name,
        tactics: [...technique.tactics],
        isCustom: custom,
        stixId: custom ? null : `attack-pattern--${randomUUID()}`,
        isSubtechnique: 'parent' in technique,
        parentTtpId: 'parent' in technique ? technique.parent : null,
        revoked: 'revoked' in technique,
      },
    });
    ids[technique.ttpId] = row.id;
  }
  return ids;
}

/** The catalog above, written before the file's tests (after `app` has started): technique ids by ttp id. */
export const usePathCatalog = (app: TestApp) => madeBeforeAll('The path catalog', () => seedPathCatalog(app));

/** A test template for `ttpId` written directly (templates have their own tests). */
export async function template(app: TestApp, ttpId: string, extra: { isActive?: boolean; name?: string } = {}) {
  return app.services.prisma.testTemplate.create({
    data: {
      name: extra.name ?? `Exercise ${ttpId}`,
      description: `Runs ${ttpId}`,
      ttpTechniqueId: ttpId,
      platform: 'windows',
      platforms: ['windows'],
      procedure: 'Invoke-Thing -Target #{target}',
      inputArguments: { target: { default: 'host-1' } },
      isActive: extra.isActive ?? true,
    },
  });
}

/** POST /attack-paths, expecting 201. */
export async function createPath(app: TestApp, who: Member, body: Record<string, unknown>) {
  const response = await app.api('POST', '/attack-paths', { token: who.token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Record<string, any>;
}

/** The positions of a path's steps as stored, in order, with their ttp ids. */
export async function storedOrder(app: TestApp, pathId: string) {
  const steps = await app.services.prisma.attackPathStep.findMany({
    where: { pathId },
    orderBy: { position: 'asc' },
    select: { position: true, technique: { select: { ttpId: true } } },
  });
  return steps.map((step) => `${step.position}:${step.technique.ttpId}`);
}
