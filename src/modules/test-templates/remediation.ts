import type { Db } from '../../db/client.ts';

const CITATION = /\s*\(Citation:[^)]*\)/g;
const tidy = (text: string) => text.replace(CITATION, '').replace(/\s+/g, ' ').trim();

/**
 * Suggested remediation per technique, from the ATT&CK mitigations the catalog holds for it: each mitigation's
 * name, id and description, then how it applies to this technique. Techniques without mitigations are absent.
 */
export async function remediationByTtpId(db: Db, ttpIds: readonly string[]): Promise<Map<string, string>> {
  const techniques = await db.technique.findMany({
    where: { ttpId: { in: [...new Set(ttpIds)] }, mitigations: { some: { mitigation: { deprecated: false } } } },
    select: {
      ttpId: true,
      mitigations: {
        where: { mitigation: { deprecated: false } },
        select: { description: true, mitigation: { select: { externalId: true, name: true, description: true } } },
      },
    },
  });
  const remediation = new Map<string, string>();
  for (const technique of techniques) {
    const lines = technique.mitigations
      .sort((a, b) => (a.mitigation.externalId ?? a.mitigation.name).localeCompare(b.mitigation.externalId ?? b.mitigation.name))
      .map(({ description, mitigation }) => {
        const label = mitigation.externalId ? `${mitigation.name} (${mitigation.externalId})` : mitigation.name;
        const general = tidy(mitigation.description);
        const specific = tidy(description);
        return [
          `- ${label}${general ? `: ${general}` : ''}`,
          ...(specific && specific !== general ? [`  For ${technique.ttpId}: ${specific}`] : []),
        ].join('\n');
      });
    remediation.set(technique.ttpId, [`ATT&CK mitigations for ${technique.ttpId}:`, ...lines].join('\n'));
  }
  return remediation;
}
