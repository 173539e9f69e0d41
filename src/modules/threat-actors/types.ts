import { builder } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { pageType } from '../../graphql/pagination.ts';
import { CoverageStatusEnum } from '../techniques/types.ts';

/** Most technique uses an actor lists: above the whole ATT&CK technique catalog. */
const ACTOR_TECHNIQUE_MAX = 1000;
/** Most actors a technique lists: above every ATT&CK group (about 180). */
const TECHNIQUE_ACTOR_MAX = 500;

export const ThreatActorType = builder.prismaObject('ThreatActor', {
  description: 'A threat group (an ATT&CK intrusion set) and the techniques it is known to use.',
  fields: (t) => ({
    id: t.exposeID('id'),
    stixId: t.exposeString('stixId', { description: 'STIX id of the intrusion set.' }),
    externalId: t.exposeString('externalId', { nullable: true, description: 'ATT&CK group id, e.g. G0007.' }),
    name: t.exposeString('name'),
    aliases: t.exposeStringList('aliases'),
    description: t.exposeString('description'),
    motivation: t.exposeString('motivation', { nullable: true, description: 'Primary motivation, else the first secondary one.' }),
    motivations: t.exposeStringList('motivations', { description: 'Every motivation known for the actor.' }),
    country: t.exposeString('country', { nullable: true, description: 'ISO 3166 alpha-2 country code, where known.' }),
    revoked: t.exposeBoolean('revoked'),
    deprecated: t.exposeBoolean('deprecated'),
    attackModified: t.expose('attackModified', { type: 'DateTime', nullable: true, description: 'STIX `modified` of the intrusion set.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    techniqueCount: t.relationCount('techniques', { description: 'Number of technique uses known for the actor.' }),
    techniques: t.relation('techniques', {
      description: `Technique uses of the actor, ordered by ttp id (at most ${ACTOR_TECHNIQUE_MAX}).`,
      query: { orderBy: [{ technique: { ttpId: 'asc' } }, { id: 'asc' }], take: ACTOR_TECHNIQUE_MAX },
      complexity: cappedListCost(ACTOR_TECHNIQUE_MAX),
    }),
  }),
});

export const ThreatActorTechniqueType = builder.prismaObject('ThreatActorTechnique', {
  description:
    'A technique use by a threat actor (an ATT&CK `uses` relationship) with the procedure reported. The flat technique fields save clients a nesting level.',
  fields: (t) => ({
    id: t.exposeID('id'),
    stixId: t.exposeString('stixId', { description: 'STIX id of the relationship.' }),
    procedure: t.exposeString('procedure', { description: 'How the actor used the technique (procedure example).' }),
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.string({ select: { technique: true }, resolve: (use) => use.technique.ttpId }),
    name: t.string({ description: 'Name of the technique.', select: { technique: true }, resolve: (use) => use.technique.name }),
    tactic: t.string({ nullable: true, select: { technique: true }, resolve: (use) => use.technique.tactic }),
    statusGlobal: t.field({ type: CoverageStatusEnum, select: { technique: true }, resolve: (use) => use.technique.statusGlobal }),
    technique: t.relation('technique'),
    actor: t.relation('actor'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const ThreatActorPage = pageType('ThreatActorPage', ThreatActorType);

export const ThreatActorFilterInput = builder.inputType('ThreatActorFilter', {
  fields: (t) => ({
    country: t.string({ required: false, description: 'ISO 3166 alpha-2 country code (case-insensitive), e.g. RU.' }),
    motivation: t.string({ required: false, description: 'Primary or secondary motivation (case-insensitive).' }),
    search: t.string({ required: false, description: 'Matches name, aliases, group id (G0007) or description.' }),
    includeDeprecated: t.boolean({ required: false, description: 'Also list revoked and deprecated actors (hidden by default).' }),
  }),
});

builder.prismaObjectField('Technique', 'threatActors', (t) =>
  t.field({
    type: [ThreatActorType],
    description: `Active threat actors known to use this technique, by name (at most ${TECHNIQUE_ACTOR_MAX}).`,
    complexity: cappedListCost(TECHNIQUE_ACTOR_MAX),
    select: (_args, _context, nestedSelection) => ({
      actorUses: {
        where: { actor: { revoked: false, deprecated: false } },
        orderBy: [{ actor: { name: 'asc' } }, { id: 'asc' }],
        take: TECHNIQUE_ACTOR_MAX,
        select: { actor: nestedSelection(true) },
      },
    }),
    resolve: (technique) => technique.actorUses.map((use) => use.actor),
  }),
);
