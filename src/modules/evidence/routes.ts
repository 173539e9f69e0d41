import { ForbiddenError, ValidationError } from '../../errors.ts';
import { principalOf } from '../../graphql/context.ts';
import { LinkSigner } from '../../storage/links.ts';
import type { Route } from '../../../rest-adapter/types.ts';
import { sendEvidenceFile } from './download.ts';
import { evidenceRoles } from './permissions.ts';
import { getEvidence } from './service.ts';
import { receiveUpload } from './upload.ts';
import './types.ts';
import { EVIDENCE_FIELDS } from '../test-runs/routes.ts';

const EVIDENCE = `query ($id: UUID!) { evidence(id: $id) { ${EVIDENCE_FIELDS} } }`;

export const evidenceRoutes: Route[] = [
  {
    method: 'POST',
    path: '/tests/:id/evidence',
    tag: 'Evidence',
    summary:
      'Upload evidence: multipart/form-data with the file in part "file" and team red|blue as ?team= or a form field before the file ' +
      '(red: RL, RT, A; blue: BL, BT, A). 413 above EVIDENCE_MAX_SIZE',
    roles: evidenceRoles.upload,
    status: 201,
    requestType: 'multipart/form-data',
    // No `documents`: the first one would describe the multipart body in the OpenAPI document as its variables.
    async handle(req, res, { execute, context }) {
      const evidence = await receiveUpload(context.services, principalOf(context), String(req.params.id), req);
      res.status(201).json(await execute(EVIDENCE, { id: evidence.id }));
    },
  },
  {
    method: 'GET',
    path: '/tests/:id/evidence',
    tag: 'Evidence',
    summary: 'The evidence of a test, oldest first, each with a fresh download link',
    roles: evidenceRoles.read,
    document: `query ($id: UUID!) { testEvidence(testId: $id) { ${EVIDENCE_FIELDS} } }`,
  },
  {
    method: 'GET',
    path: '/evidence/:id',
    tag: 'Evidence',
    summary: 'Evidence metadata with a time-limited download link',
    roles: evidenceRoles.read,
    document: EVIDENCE,
  },
  {
    method: 'GET',
    path: '/evidence/:id/download',
    tag: 'Evidence',
    summary: 'The file, streamed through the service and checked against its SHA-256',
    roles: evidenceRoles.read,
    responseTypes: ['application/octet-stream'],
    async handle(req, res, { context }) {
      const evidence = await getEvidence(context.services, String(req.params.id));
      await sendEvidenceFile(context.services, context.log, res, evidence);
    },
  },
  {
    method: 'GET',
    path: '/evidence/:id/file',
    tag: 'Evidence',
    summary: 'The file through a signed download link (query expires and signature, as given in download_url); 403 when expired or altered',
    roles: evidenceRoles.signedLink,
    queryParameters: { expires: { type: 'string' }, signature: { type: 'string' } },
    responseTypes: ['application/octet-stream'],
    async handle(req, res, { context }) {
      const { expires, signature } = req.query;
      if (!LinkSigner.wellFormed(expires, signature))
        throw new ValidationError(null, 'expires and signature of a download link are required');
      const id = String(req.params.id);
      const check = context.services.storage.links.check(id, expires, signature as string);
      if (check === 'invalid') throw new ForbiddenError('The download link is not valid');
      if (check === 'expired') throw new ForbiddenError('The download link has expired');
      await sendEvidenceFile(context.services, context.log, res, await getEvidence(context.services, id));
    },
  },
  {
    method: 'DELETE',
    path: '/evidence/:id',
    tag: 'Evidence',
    summary: 'Delete an evidence file (the uploader, RL, BL, A); answers the deleted record',
    roles: evidenceRoles.delete,
    document: `mutation ($id: UUID!) { deleteEvidence(id: $id) { id testId team fileName sha256Hash sizeBytes uploadedAt } }`,
  },
];
