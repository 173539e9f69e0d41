import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Prisma } from '../../db/client.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import type { TestTemplate, ThreatActor } from '../../generated/prisma/client.ts';
import { NotFoundError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { isUuid, parseInput, trimmed } from '../../validation.ts';
import { fieldsFromTemplate } from '../test-runs/templates.ts';
import { getThreatActor } from '../threat-actors/service.ts';
import { insertCampaign } from './service.ts';
import type { CampaignQuery } from './store.ts';

const MAX_DESCRIPTION = 20_000;
/** A threat actor's uuid or ATT&CK group id (G0007); anything else names no actor. */
const isActorKey = (key: string) => isUuid(key) || /^G\d{4,}$/i.test(key);

const inputSchema = z.object({
  name: trimmed(300).nullish(),
  description: z.string().max(MAX_DESCRIPTION, `must be at most ${MAX_DESCRIPTION} characters`).nullish(),
});

interface UsedTechnique {
  id: string;
  ttp_id: string;
  name: string;
  procedures: string | null;
}

/** The distinct active (neither revoked nor deprecated) techniques the actor uses, with its reported procedures. */
function usedTechniques(uow: UnitOfWork, actorId: string) {
  return uow.tx.$queryRaw<UsedTechnique[]>`
    SELECT t.id::text AS id, t.ttp_id, t.name,
           string_agg(DISTINCT nullif(btrim(u.procedure), ''), E'\n\n') AS procedures
    FROM threat_actor_techniques u JOIN techniques t ON t.id = u.technique_id
    WHERE u.actor_id = ${actorId}::uuid AND NOT t.revoked AND NOT t.deprecated
    GROUP BY t.id
    ORDER BY t.ttp_id`;
}

/** For each ttp id, the first active template that exercises it: the oldest, then by name. */
async function firstTemplates(uow: UnitOfWork, ttpIds: string[]): Promise<Map<string, TestTemplate>> {
  if (!ttpIds.length) return new Map();
  const firsts = await uow.tx.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT ON (ttp_technique_id) id::text AS id
    FROM test_templates
    WHERE is_active AND ttp_technique_id = ANY(${ttpIds}::text[])
    ORDER BY ttp_technique_id, created_at, name, id`;
  const templates = await uow.tx.testTemplate.findMany({ where: { id: { in: firsts.map((row) => row.id) } } });
  return new Map(templates.map((template) => [template.ttpTechniqueId!, template]));
}

const clip = (text: string) => (text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text);

/** The pre-filled fields of a test: as POST /tests/from-template fills them, else a generic definition of the use. */
function testFields(actor: ThreatActor, technique: UsedTechnique, template: TestTemplate | undefined) {
  if (template) return fieldsFromTemplate(template);
  const reported = technique.procedures ? `\n\nProcedures reported for ${actor.name}:\n${technique.procedures}` : '';
  return {
    templateId: null,
    name: `${technique.ttp_id} ${technique.name}`,
    description: clip(`Emulate ${actor.name}'s use of ${technique.name} (${technique.ttp_id}).${reported}`),
    platform: null,
    procedureText: null,
    toolUsed: null,
    remediationSteps: null,
  };
}

const actorLabel = (actor: ThreatActor) => (actor.externalId ? `${actor.name} (${actor.externalId})` : actor.name);

/**
 * Creates, in one transaction, a threat_actor campaign and one draft test per distinct active technique the
 * actor uses, each pre-filled from the technique's first active template when there is one. Tests, their
 * timeline entries and their audit entries are written with one statement per table.
 */
export async function createCampaignFromThreatActor(
  services: Services,
  principal: Principal,
  actorKey: string,
  input: unknown,
  query: CampaignQuery = {},
) {
  const data = parseInput(inputSchema, input ?? {});
  if (!isActorKey(actorKey.trim())) throw new NotFoundError('Threat actor', actorKey);
  const actor = await getThreatActor(services, actorKey);
  return inTransaction(
    services,
    principal,
    async (uow) => {
      const techniques = await usedTechniques(uow, actor.id);
      const templates = await firstTemplates(
        uow,
        techniques.map((technique) => technique.ttp_id),
      );
      const campaign = await insertCampaign(
        uow,
        principal.userId,
        {
          name: data.name ?? `${actorLabel(actor)} emulation`,
          description: data.description ?? `Tests of the ${techniques.length} techniques ${actorLabel(actor)} is known to use.`,
          type: 'threat_actor',
          threatActorId: actor.id,
        },
        { threat_actor_id: actor.id, threat_actor: actor.name, tests_created: techniques.length, from_templates: templates.size },
      );
      const tests = techniques.map((technique) => {
        const id = randomUUID();
        const fields = testFields(actor, technique, templates.get(technique.ttp_id));
        return {
          id,
          lineageId: id,
          techniqueId: technique.id,
          campaignId: campaign.id,
          createdById: principal.userId,
          state: 'draft' as const,
          ...fields,
        };
      });
      if (tests.length) {
        const now = Date.now();
        const details = (test: (typeof tests)[number]): Prisma.InputJsonObject => ({
          campaign_id: campaign.id,
          template_id: test.templateId,
          threat_actor_id: actor.id,
        });
        await uow.tx.test.createMany({ data: tests });
        await uow.tx.testEvent.createMany({
          data: tests.map((test) => ({
            testId: test.id,
            kind: 'created',
            toState: 'draft' as const,
            details: details(test),
            actorId: principal.userId,
            actorName: principal.username,
            at: new Date(now),
          })),
        });
        await uow.tx.auditLog.createMany({
          data: tests.map((test) => ({
            userId: principal.userId,
            username: principal.username,
            action: 'create_test',
            entityType: 'test',
            entityId: test.id,
            details: { name: test.name, technique_id: test.techniqueId, ...details(test) },
          })),
        });
        for (const test of tests) uow.emit('test.changed', { testId: test.id, campaignId: campaign.id, change: 'created' });
      }
      return uow.tx.campaign.findUniqueOrThrow({ ...query, where: { id: campaign.id } });
    },
    { timeout: 60_000, bulk: true },
  );
}
