import { builder } from '../../graphql/builder.ts';
import { pageType } from '../../graphql/pagination.ts';
import '../threat-actors/types.ts';
import type { IntelScanOutcome } from './service.ts';

export const IntelScanType = builder.prismaObject('IntelScan', {
  description: 'One run of the intel scan.',
  fields: (t) => ({
    id: t.exposeID('id'),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
    baseline: t.exposeBoolean('baseline', { description: 'The first scan only learns which technique uses exist and reports none.' }),
    newItems: t.exposeInt('newItems', { description: 'Findings this scan recorded.' }),
  }),
});

export const IntelFindingType = builder.prismaObject('IntelFinding', {
  description: 'A threat actor newly seen using a technique that was not validated when the scan found it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    scan: t.relation('scan'),
    actor: t.relation('actor'),
    technique: t.relation('technique'),
    use: t.relation('actorTechnique', { description: 'The technique use (with its procedure) behind the finding.' }),
  }),
});

export const IntelFindingPage = pageType('IntelFindingPage', IntelFindingType);

export const IntelScanResultType = builder.objectRef<IntelScanOutcome>('IntelScanResult').implement({
  description: 'What an intel scan did.',
  fields: (t) => ({
    message: t.exposeString('message'),
    newItems: t.exposeInt('newItems', { description: 'New findings; 0 for the baseline scan and for a re-run with nothing new.' }),
    baseline: t.exposeBoolean('baseline'),
    scan: t.field({ type: IntelScanType, resolve: (outcome) => outcome.scan }),
  }),
});
