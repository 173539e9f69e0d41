import type { Db } from '../../db/client.ts';
import type { EventOf } from '../../events/types.ts';
import type { MailContent } from '../email/messages.ts';

/** How many new techniques an e-mail lists before "and N more". */
const LISTED_TECHNIQUES = 20;

interface MailContext {
  db: Db;
  link: (...segments: string[]) => string;
}

/** The e-mail of a validated test (the notice table's `test_validated` row). */
export async function testValidatedMail({ payload }: EventOf<'test.validated'>, { db, link }: MailContext): Promise<MailContent | null> {
  const test = await db.test.findUnique({
    where: { id: payload.testId },
    select: { id: true, name: true, technique: { select: { ttpId: true, name: true } } },
  });
  if (!test) return null;
  const { ttpId, name } = test.technique;
  return {
    subject: `Test validated: ${test.name} (${ttpId})`,
    paragraphs: [
      `Your test "${test.name}" of ${ttpId} ${name} was validated by the red and blue leads.`,
      `Detection result: ${(payload.detectionResult ?? 'not recorded').replaceAll('_', ' ')}.`,
    ],
    link: { label: 'The test', url: link('tests', test.id) },
  };
}

export async function campaignCompletedMail({ payload }: EventOf<'campaign.completed'>, { link }: MailContext): Promise<MailContent> {
  return {
    subject: `Campaign completed: ${payload.name}`,
    paragraphs: [
      `The campaign "${payload.name}" is completed: ${payload.validatedCount} of ${payload.testCount} tests validated (${payload.percentage}%).`,
    ],
    link: { label: 'The campaign', url: link('campaigns', payload.campaignId) },
  };
}

export async function newTechniquesMail({ payload }: EventOf<'catalog.techniques_added'>, { db, link }: MailContext): Promise<MailContent> {
  const listed = payload.ttpIds.slice(0, LISTED_TECHNIQUES);
  const names = new Map(
    (await db.technique.findMany({ where: { ttpId: { in: listed } }, select: { ttpId: true, name: true } })).map((row) => [
      row.ttpId,
      row.name,
    ]),
  );
  const more = payload.count - listed.length;
  const count = `${payload.count} new technique${payload.count === 1 ? '' : 's'}`;
  return {
    subject: `ATT&CK catalog: ${count}`,
    paragraphs: [`The ATT&CK catalog sync added ${count}.${more > 0 ? ` The first ${listed.length}:` : ''}`],
    items: [
      ...listed.map((ttpId) => ({ label: `${ttpId} ${names.get(ttpId) ?? ''}`.trim(), url: link('techniques', ttpId) })),
      ...(more > 0 ? [{ label: `and ${more} more` }] : []),
    ],
    link: { label: 'The technique catalog', url: link('techniques') },
  };
}

export async function alertFiredMail({ payload }: EventOf<'alert.fired'>, { link }: MailContext): Promise<MailContent> {
  return {
    subject: `Alert (${payload.severity}): ${payload.title}`,
    paragraphs: [`The alert rule "${payload.ruleName}" fired: ${payload.title}.`],
    items: Object.entries(payload.figures).map(([key, value]) => ({ label: `${key.replaceAll('_', ' ')}: ${String(value)}` })),
    link: { label: 'The alert', url: link('alerts', payload.alertId) },
  };
}
