import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { principalOf } from '../../graphql/context.ts';
import { evidenceRoles } from './permissions.ts';
import * as evidence from './service.ts';
import './types.ts';

builder.queryFields((t) => ({
  evidence: t.prismaField({
    type: 'Evidence',
    description: 'One evidence file: its metadata and a fresh download link.',
    authScopes: allow(evidenceRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => evidence.getEvidence(context.services, String(id), query),
  }),
  testEvidence: t.prismaField({
    type: ['Evidence'],
    description: `The evidence of a test, oldest first (at most ${evidence.TEST_EVIDENCE_MAX}).`,
    authScopes: allow(evidenceRoles.read),
    complexity: cappedListCost(evidence.TEST_EVIDENCE_MAX),
    args: { testId: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { testId }, context) => evidence.listTestEvidence(context.services, String(testId), query),
  }),
}));

builder.mutationFields((t) => ({
  deleteEvidence: t.prismaField({
    type: 'Evidence',
    description: 'Deletes an evidence file and its record (the uploader, leads, admins); answers the deleted record.',
    authScopes: allow(evidenceRoles.delete),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => evidence.deleteEvidence(context.services, principalOf(context), String(id), query),
  }),
}));

builder.prismaObjectField('Test', 'evidences', (t) =>
  t.relation('evidences', {
    description: `Evidence files attached to the test, oldest first (at most ${evidence.TEST_EVIDENCE_MAX}).`,
    query: { orderBy: [{ uploadedAt: 'asc' }, { id: 'asc' }], take: evidence.TEST_EVIDENCE_MAX },
    complexity: cappedListCost(evidence.TEST_EVIDENCE_MAX),
  }),
);
