import { builder } from '../../graphql/builder.ts';
import { pageType } from '../../graphql/pagination.ts';
import { SoftwareKind } from '../../generated/prisma/enums.ts';

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

export const SoftwareKindEnum = builder.enumType(SoftwareKind, {
  name: 'SoftwareKind',
  description: 'malware: an ATT&CK malware object; tool: an ATT&CK tool (commercial, open-source or built into the OS).',
});

export const SoftwareType = builder.prismaObject('Software', {
  description: 'ATT&CK software: a malware family or a tool.',
  fields: (t) => ({
    id: t.exposeID('id'),
    stixId: t.exposeString('stixId', { description: 'STIX id of the malware or tool object.' }),
    externalId: t.exposeString('externalId', { nullable: true, description: 'ATT&CK software id, e.g. S0002.' }),
    kind: t.expose('kind', { type: SoftwareKindEnum }),
    name: t.exposeString('name'),
    aliases: t.exposeStringList('aliases', { description: 'ATT&CK aliases (x_mitre_aliases); the OSINT matcher finds these in text.' }),
    description: t.exposeString('description'),
    platforms: t.exposeStringList('platforms'),
    revoked: t.exposeBoolean('revoked'),
    deprecated: t.exposeBoolean('deprecated'),
    attackModified: t.expose('attackModified', { type: 'DateTime', nullable: true, description: 'STIX `modified` of the object.' }),
  }),
});

export const SoftwarePage = pageType('SoftwarePage', SoftwareType);

export const SoftwareFilterInput = builder.inputType('SoftwareFilter', {
  fields: (t) => ({
    kind: t.field({ type: SoftwareKindEnum, required: false }),
    search: t.string({ required: false, description: 'Matches name, aliases or software id (S0002), case-insensitively.' }),
    includeDeprecated: t.boolean({ required: false, description: 'Also list revoked and deprecated software (hidden by default).' }),
  }),
});
