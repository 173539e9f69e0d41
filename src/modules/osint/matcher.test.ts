import { describe, expect, it } from 'vitest';
import { catalogOf, findMentions } from './matcher.ts';

const technique = (ttpId: string, extra: { revoked?: boolean; deprecated?: boolean } = {}) => ({
  id: `id-${ttpId}`,
  ttpId,
  statusGlobal: 'not_evaluated' as const,
  revoked: false,
  deprecated: false,
  ...extra,
});
const catalog = catalogOf(
  [
    technique('T1059'),
    technique('T1059.001'),
    technique('T1190'),
    technique('T1086', { revoked: true }),
    technique('T1150', { revoked: true }),
    technique('T1547.011', { revoked: true }),
    technique('T1647'),
    technique('T1088', { revoked: true }),
    technique('T1089', { revoked: true }),
    technique('T1064', { revoked: true }),
    technique('T1500', { deprecated: true }),
  ],
  [
    { id: 'apt28', externalId: 'G0007', name: 'APT28', aliases: ['APT28', 'Fancy Bear', 'Sofacy'] },
    { id: 'turla', externalId: 'G0010', name: 'Turla', aliases: ['Turla', 'Snake', 'Iron'] },
    { id: 'lazarus', externalId: 'G0032', name: 'Lazarus Group', aliases: ['Lazarus Group', 'Lazarus', 'Shared Name'] },
    { id: 'other', externalId: 'G0099', name: 'Other', aliases: ['Shared Name'] },
    { id: 'fin7', externalId: 'G0046', name: 'FIN7', aliases: ['FIN7'] },
  ],
  new Map([
    ['T1086', 'T1059.001'],
    ['T1150', 'T1547.011'],
    ['T1547.011', 'T1647'],
    ['T1088', 'T1089'],
    ['T1089', 'T1088'],
  ]),
  [
    { id: 'mimikatz', externalId: 'S0002', name: 'Mimikatz', aliases: ['Mimikatz'] },
    { id: 'cobalt', externalId: 'S0154', name: 'Cobalt Strike', aliases: ['Cobalt Strike'] },
    { id: 'uroburos', externalId: 'S0022', name: 'Uroburos', aliases: ['Uroburos', 'Snake'] },
    { id: 'ps1', externalId: 'S9991', name: 'PS1', aliases: ['PS1'] },
    { id: 'p2p', externalId: 'S9992', name: 'P2P ZeuS', aliases: ['P2P ZeuS', 'Shared Tool'] },
    { id: 'other-tool', externalId: 'S9993', name: 'Other Tool', aliases: ['Shared Tool'] },
  ],
);
const linked = (text: string, references: string[] = []) => {
  const found = findMentions(catalog, text, references);
  return {
    ...found,
    techniques: found.techniques.map(({ technique: t, mentioned }) => `${mentioned}→${t.ttpId}`),
    actors: found.actors.map((a) => `${a.mentioned}→${a.actorId}`),
  };
};

describe('the matcher', () => {
  it('reads technique ids as whole words, with sub-techniques and the site path form', () => {
    expect(linked('T1059, T1059.001 and attack.mitre.org/techniques/T1059/001/').techniqueIds).toEqual(['T1059', 'T1059.001']);
    expect(linked('XT1059 T10590 T1059.0012 t1059 T1059_x').techniqueIds).toEqual([]);
    expect(linked('(T1190).').techniques).toEqual(['T1190→T1190']);
  });

  it('links a revoked id to its successor, a missing sub-technique to its parent, and leaves a deprecated one unlinked', () => {
    const found = linked('T1086, T1190.999 and T1500');
    expect(found.techniqueIds).toEqual(['T1086', 'T1190.999', 'T1500']);
    expect(found.techniques).toEqual(['T1086→T1059.001', 'T1190.999→T1190']);
  });

  it('follows a chain of revocations to the active successor; a loop or a revoked id without a successor links nothing', () => {
    const found = linked('T1150, T1088 and T1064');
    expect(found.techniqueIds).toEqual(['T1064', 'T1088', 'T1150']);
    expect(found.techniques).toEqual(['T1150→T1647']);
  });

  it('matches names as the catalog writes them, names with digits in any case, the longest name first, never ambiguous or short ones', () => {
    expect(linked('Fancy Bear and fin7 met the Lazarus Group').actors).toEqual(['Fancy Bear→apt28', 'fin7→fin7', 'Lazarus Group→lazarus']);
    expect(linked('fancy bear, turla, an iron snake, Shared Name, Ironclad').actors).toEqual([]);
    expect(linked('apt28 again').groupIds).toEqual(['G0007']);
    expect(linked('G0010 and G9999').groupIds).toEqual(['G0010', 'G9999']);
    expect(linked('G0010 and G9999').actors).toEqual(['G0010→turla']);
  });

  it('matches software names and aliases as whole words, as for groups; a name an actor also bears links both', () => {
    expect(linked('Cobalt Strike beacons and Mimikatz, then p2p zeus').softwareIds).toEqual(['S0002', 'S0154', 'S9992']);
    expect(linked('mimikatz, Mimikatzz, XMimikatz, cobalt strike, Shared Tool, Cobalt').softwareIds).toEqual([]);
    expect(linked('run.ps1 and PS1').softwareIds).toEqual([]);
    const snake = linked('A Snake implant (S0154 too)');
    expect(snake).toMatchObject({ softwareIds: ['S0022', 'S0154'], groupIds: ['G0010'], actors: ['Snake→turla'] });
  });

  it('keeps software ids and CVE ids (upper case), and the ids a source states outright', () => {
    expect(linked('S0002 and cve-2024-1234 and CVE-2023-45678', ['T1190', 'G0046'])).toMatchObject({
      softwareIds: ['S0002'],
      cveIds: ['CVE-2023-45678', 'CVE-2024-1234'],
      techniqueIds: ['T1190'],
      groupIds: ['G0046'],
    });
  });
});
