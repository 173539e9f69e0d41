import { builder } from '../../graphql/builder.ts';
import type { Context } from '../../graphql/context.ts';
import { Team } from '../../generated/prisma/enums.ts';
import type { Evidence } from '../../generated/prisma/client.ts';
import type { DownloadLink } from '../../storage/types.ts';
import { UserSummaryType } from '../users/types.ts';
import { uploadTeamsFor } from './permissions.ts';
import { downloadLinkOf } from './service.ts';

export const TeamEnum = builder.enumType(Team, { name: 'Team', description: 'A side of the purple team.' });

/** One link per evidence object and request, shared by downloadUrl and downloadUrlExpiresAt. */
const links = new WeakMap<Evidence, Promise<DownloadLink>>();
function linkOf(evidence: Evidence, context: Context): Promise<DownloadLink> {
  let link = links.get(evidence);
  if (!link) links.set(evidence, (link = downloadLinkOf(context.services, evidence)));
  return link;
}

export const EvidenceType = builder.prismaObject('Evidence', {
  description: 'A file attached to a test by the red or blue team. Uploads go through REST (POST /api/v1/tests/{id}/evidence).',
  fields: (t) => ({
    id: t.exposeID('id'),
    testId: t.exposeID('testId'),
    test: t.relation('test'),
    team: t.expose('team', { type: TeamEnum }),
    fileName: t.exposeString('fileName', { description: 'The uploaded name reduced to a safe base name; the download uses it.' }),
    contentType: t.exposeString('contentType', {
      description: 'Media type given with the file (application/octet-stream when missing or malformed).',
    }),
    sizeBytes: t.float({ description: 'Size in bytes.', resolve: (evidence) => Number(evidence.sizeBytes) }),
    sha256Hash: t.exposeString('sha256Hash', { description: 'Hex SHA-256 of the file, computed while it was stored.' }),
    uploadedAt: t.expose('uploadedAt', { type: 'DateTime' }),
    uploadedById: t.exposeID('uploadedById', { nullable: true, description: 'The uploader (null once their account is deleted).' }),
    uploadedBy: t.relation('uploadedBy', {
      type: UserSummaryType,
      nullable: true,
      description: 'The uploader as other records name users (null once their account is deleted).',
    }),
    downloadUrl: t.string({
      description: 'A time-limited link that downloads the file without signing in (DOWNLOAD_URL_TTL).',
      resolve: async (evidence, _args, context) => (await linkOf(evidence, context)).url,
    }),
    downloadUrlExpiresAt: t.field({
      type: 'DateTime',
      description: 'When downloadUrl stops working.',
      resolve: async (evidence, _args, context) => (await linkOf(evidence, context)).expiresAt,
    }),
  }),
});

builder.prismaObjectField('Test', 'myEvidenceTeams', (t) =>
  t.field({
    type: [TeamEnum],
    description: "The teams as which the caller's role may add evidence in the test's current state. Empty for viewers.",
    resolve: (test, _args, context) => uploadTeamsFor(test.state, context.auth.principal?.role),
  }),
);
