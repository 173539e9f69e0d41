import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Prisma } from '../../db/client.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { TrackerKind } from '../../generated/prisma/enums.ts';
import { HTTP_PORTS, parseAllowList } from '../../net/allow-list.ts';
import { assertDestinationAllowed, DestinationRefusedError } from '../../net/guarded-fetch.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed } from '../../validation.ts';
import type { ConnectionSecrets } from './clients.ts';
import { fieldMappingSchema, statusMappingSchema } from './mapping.ts';

export const CONNECTION_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const pageSchema = page(CONNECTION_PAGE.defaultLimit, CONNECTION_PAGE.maxLimit);

export const trackerCredentials = (services: Pick<Services, 'secrets'>) => services.secrets.box('tracker-credential');
export const trackerWebhookSecrets = (services: Pick<Services, 'secrets'>) => services.secrets.box('tracker-webhook-secret');

const fields = {
  name: trimmed(100),
  kind: z.enum(TrackerKind, { error: `must be one of ${Object.keys(TrackerKind).join(', ')}` }),
  baseUrl: trimmed(2_048),
  project: trimmed(200),
  issueType: trimmed(100),
  username: trimmed(200).nullable(),
  credential: z.string().min(1, 'must not be empty').max(4_096, 'must be at most 4096 characters'),
  webhookSecret: z.string().min(16, 'must be at least 16 characters').max(256, 'must be at most 256 characters').nullable(),
  fieldMapping: fieldMappingSchema,
  statusMapping: statusMappingSchema,
  isActive: z.boolean(),
};

const createSchema = z.object({
  ...fields,
  issueType: fields.issueType.optional(),
  username: fields.username.optional(),
  webhookSecret: fields.webhookSecret.optional(),
  fieldMapping: fields.fieldMapping.optional(),
  statusMapping: fields.statusMapping.optional(),
  isActive: fields.isActive.optional(),
});
const updateSchema = z.object(fields).partial();

const PROJECT_FORMS: Record<TrackerKind, { pattern: RegExp; words: string }> = {
  jira_cloud: { pattern: /^[A-Z][A-Z0-9_]{0,49}$/, words: 'a Jira project key such as SEC' },
  jira_dc: { pattern: /^[A-Z][A-Z0-9_]{0,49}$/, words: 'a Jira project key such as SEC' },
  github: { pattern: /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/, words: 'owner/repo' },
};

type Query = { select?: Prisma.TrackerConnectionSelect };

async function checkedBaseUrl(services: Services, url: string): Promise<string> {
  try {
    const href = (await assertDestinationAllowed(url, { allowList: parseAllowList(services.config.TRACKER_ALLOWED_HOSTS, HTTP_PORTS) }))
      .href;
    return href.replace(/\/+$/, '');
  } catch (error) {
    if (error instanceof DestinationRefusedError) throw new ValidationError('baseUrl', error.message);
    throw error;
  }
}

function checkProject(kind: TrackerKind, project: string): void {
  const form = PROJECT_FORMS[kind];
  if (!form.pattern.test(project)) throw new ValidationError('project', `must be ${form.words}`);
}

export async function listConnections(services: Services, paging: unknown, query: Query = {}) {
  const { offset, limit } = parseInput(pageSchema, paging);
  return services.prisma.trackerConnection.findMany({
    ...query,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    skip: offset,
    take: limit,
  });
}

export async function getConnection(services: Services, id: string, query: Query = {}) {
  const connection = await services.prisma.trackerConnection.findUnique({ ...query, where: { id } });
  if (!connection) throw new NotFoundError('Tracker connection', id);
  return connection;
}

export async function createConnection(services: Services, principal: Principal, input: unknown, query: Query = {}) {
  const values = parseInput(createSchema, input);
  checkProject(values.kind, values.project);
  const baseUrl = await checkedBaseUrl(services, values.baseUrl);
  return inTransaction(services, principal, async (uow) => {
    const { id } = await uow.tx.trackerConnection.create({
      select: { id: true },
      data: {
        name: values.name,
        kind: values.kind,
        baseUrl,
        project: values.project,
        issueType: values.issueType ?? (values.kind === 'github' ? 'issue' : 'Task'),
        username: values.username ?? null,
        credentialSealed: trackerCredentials(services).seal(values.credential),
        webhookSecretSealed: values.webhookSecret ? trackerWebhookSecrets(services).seal(values.webhookSecret) : null,
        fieldMapping: values.fieldMapping ?? {},
        statusMapping: values.statusMapping ?? {},
        isActive: values.isActive ?? true,
        createdById: principal.userId,
      },
    });
    await uow.audit({
      action: 'create_tracker_connection',
      entityType: 'tracker_connection',
      entityId: id,
      details: {
        name: values.name,
        kind: values.kind,
        base_url: baseUrl,
        project: values.project,
        webhook_signed: Boolean(values.webhookSecret),
      },
    });
    return uow.tx.trackerConnection.findUniqueOrThrow({ ...query, where: { id } });
  });
}

export async function updateConnection(services: Services, principal: Principal, id: string, input: unknown, query: Query = {}) {
  const changes = parseInput(updateSchema, input);
  const current = await getConnection(services, id, { select: { kind: true, project: true } });
  checkProject(changes.kind ?? current.kind, changes.project ?? current.project);
  const baseUrl = changes.baseUrl === undefined ? undefined : await checkedBaseUrl(services, changes.baseUrl);
  return inTransaction(services, principal, async (uow) => {
    const { credential, webhookSecret, ...visible } = changes;
    const connection = await uow.tx.trackerConnection.update({
      ...query,
      where: { id },
      data: {
        ...visible,
        baseUrl,
        credentialSealed: credential === undefined ? undefined : trackerCredentials(services).seal(credential),
        webhookSecretSealed: webhookSecret === undefined ? undefined : webhookSecret && trackerWebhookSecrets(services).seal(webhookSecret),
        // New credentials or address: the last error no longer describes the connection.
        ...(credential !== undefined || baseUrl !== undefined ? { lastError: null, lastErrorAt: null, consecutiveFailures: 0 } : {}),
      },
    });
    await uow.audit({
      action: 'update_tracker_connection',
      entityType: 'tracker_connection',
      entityId: id,
      details: {
        ...visible,
        ...(baseUrl ? { baseUrl } : {}),
        ...(credential === undefined ? {} : { credential: 'changed' }),
        ...(webhookSecret === undefined ? {} : { webhookSecret: webhookSecret ? 'changed' : 'removed' }),
      },
    });
    return connection;
  });
}

export async function deleteConnection(services: Services, principal: Principal, id: string): Promise<boolean> {
  const connection = await getConnection(services, id, { select: { name: true } });
  return inTransaction(services, principal, async (uow) => {
    await uow.tx.trackerConnection.delete({ where: { id } });
    await uow.audit({
      action: 'delete_tracker_connection',
      entityType: 'tracker_connection',
      entityId: id,
      details: { name: connection.name },
    });
    return true;
  });
}

/** What a client needs of a connection, its credential opened (kept in memory for the call, never stored or logged). */
export function secretsOf(
  services: Services,
  connection: { kind: TrackerKind; baseUrl: string; project: string; issueType: string; username: string | null; credentialSealed: string },
): ConnectionSecrets {
  return { ...connection, credential: trackerCredentials(services).open(connection.credentialSealed) };
}
