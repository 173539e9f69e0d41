import { builder } from '../../graphql/builder.ts';

const ATTACK_SITE = 'https://attack.mitre.org';

export const TacticType = builder.prismaObject('Tactic', {
  description: 'An ATT&CK Enterprise tactic, in matrix order.',
  fields: (t) => ({
    id: t.exposeID('id'),
    externalId: t.exposeString('externalId', { description: 'ATT&CK id, e.g. TA0005.' }),
    shortName: t.exposeString('shortName', { description: 'ATT&CK short name, e.g. defense-evasion (the values of Technique.tactics).' }),
    name: t.exposeString('name', { description: 'Display name, e.g. Defense Evasion.' }),
    description: t.exposeString('description'),
    matrixOrder: t.exposeInt('matrixOrder', { description: 'Column of the tactic in the Enterprise matrix, from 1.' }),
    url: t.string({ resolve: (tactic) => `${ATTACK_SITE}/tactics/${tactic.externalId}` }),
    stixId: t.exposeString('stixId', { nullable: true }),
  }),
});

export const MitigationType = builder.prismaObject('Mitigation', {
  description: 'An ATT&CK mitigation (course of action).',
  fields: (t) => ({
    id: t.exposeID('id'),
    externalId: t.exposeString('externalId', { nullable: true, description: 'ATT&CK id, e.g. M1038.' }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    deprecated: t.exposeBoolean('deprecated', { description: 'Deprecated or revoked in ATT&CK.' }),
    stixId: t.exposeString('stixId'),
  }),
});

export const TechniqueMitigationType = builder.prismaObject('TechniqueMitigation', {
  description: 'How a mitigation applies to a technique (an ATT&CK `mitigates` relationship).',
  fields: (t) => ({
    description: t.exposeString('description', { description: 'What the mitigation does against this technique.' }),
    mitigation: t.relation('mitigation'),
  }),
});
