import { z } from 'zod';
import { parseAllowList } from './net/allow-list.ts';

const durationPattern = /^(\d+)(ms|s|m|h|d)?$/;
const unitMs = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Parses "8h", "15m", "30s", "250ms" or a bare number of seconds into milliseconds. */
export function parseDuration(text: string): number {
  const match = durationPattern.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration (use e.g. 30s, 15m, 8h, 1d)`);
  return Number(match[1]) * unitMs[(match[2] ?? 's') as keyof typeof unitMs];
}

const duration = z
  .string()
  .transform((value, ctx) => {
    try {
      return parseDuration(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  })
  .meta({ type: 'duration' });

/** A worker pool's time limit (src/worker-pool.ts): at most 10 minutes, where Node's timers are exact. */
const timeLimit = (fallback: string) => duration.prefault(fallback).refine((ms) => ms <= 600_000, 'must be at most 10m');

const sizePattern = /^(\d+)\s*(b|kb|mb|gb)?$/i;
const unitBytes = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 } as const;

/** Parses "100MB", "512kb", "1GB" or a bare number of bytes. */
export function parseSize(text: string): number {
  const match = sizePattern.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a size (use e.g. 100MB, 512KB, 1GB)`);
  return Number(match[1]) * unitBytes[(match[2] ?? 'b').toLowerCase() as keyof typeof unitBytes];
}

const size = z
  .string()
  .transform((value, ctx) => {
    try {
      return parseSize(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  })
  .meta({ type: 'size' });

const flag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1')
  .meta({ type: 'boolean' });
const optionalUrl = z.string().url().optional();

/** "https://a.example, https://b.example:8443" → normalised origins (scheme://host[:port], no path). */
const originList = z
  .string()
  .transform((value, ctx) => {
    const origins: string[] = [];
    for (const item of value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const url = URL.canParse(item) ? new URL(item) : null;
      if (!url || !['http:', 'https:'].includes(url.protocol) || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
        ctx.addIssue({ code: 'custom', message: `"${item}" is not an origin (use e.g. https://violet.example.com)` });
        return z.NEVER;
      }
      origins.push(url.origin);
    }
    return origins;
  })
  .meta({ type: 'origin list' });

/** Comma-separated host names, addresses and CIDRs (each with an optional `:port` or `:*`) that outgoing connections may reach although they are not public. */
const allowList = z
  .string()
  .default('')
  .superRefine((value, ctx) => {
    try {
      parseAllowList(value, []);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
    }
  })
  .meta({ type: 'host list' });

/** "5s,30s,2m": durations in milliseconds, at least one. */
const durationList = z
  .string()
  .transform((value, ctx) => {
    try {
      const list = value.split(',').map(parseDuration);
      if (!list.length) throw new Error('at least one duration is needed');
      return list;
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  })
  .meta({ type: 'duration list' });

export const SMTP_SECURITY = ['none', 'starttls', 'tls'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

/** An SMTP server as SMTP_URL names it. */
export interface SmtpServer {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string | null;
  password: string | null;
}

const SMTP_DEFAULTS = { 'smtp:': { port: 587, security: 'starttls' }, 'smtps:': { port: 465, security: 'tls' } } as const;

/**
 * `smtp://user:pass@host:587` (STARTTLS required) or `smtps://…:465` (TLS from the first byte); `?security=none`
 * (plain, for a relay without TLS) or another `security` overrides the scheme's. User and password are URL-encoded.
 */
const smtpUrl = z
  .string()
  .transform((value, ctx): SmtpServer => {
    const url = URL.canParse(value) ? new URL(value) : null;
    const scheme = url && (url.protocol === 'smtp:' || url.protocol === 'smtps:') ? SMTP_DEFAULTS[url.protocol] : null;
    const security = url?.searchParams.get('security') ?? scheme?.security;
    if (!url || !scheme || !url.hostname || !SMTP_SECURITY.includes(security as SmtpSecurity)) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be smtp://[user:password@]host[:port] or smtps://…, optionally with ?security=none|starttls|tls',
      });
      return z.NEVER;
    }
    return {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : scheme.port,
      security: security as SmtpSecurity,
      username: url.username ? decodeURIComponent(url.username) : null,
      password: url.password ? decodeURIComponent(url.password) : null,
    };
  })
  .meta({ type: 'SMTP URL' });

const server = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development').describe('the kind of deployment'),
  HOST: z.string().default('0.0.0.0').describe('address to listen on'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8000).describe('port to listen on (`0`: any free port)'),
  PUBLIC_URL: optionalUrl.describe(
    'the address clients use, when it differs from the listening one: links in answers and e-mails, the SAML ACS and ' +
      'metadata URLs and the default SP entity id ([sso](sso.md))',
  ),
  DATA_DIR: z
    .string()
    .default('./data')
    .describe('local state: the embedded database (`pgdata/`), evidence files without S3 and, without `JWT_SECRET`, the signing secret'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('JSON logs via pino'),
  TRUST_PROXY: z
    .string()
    .default('false')
    .describe(
      'Express `trust proxy`: `true`, `false`, a hop count or a list of addresses; decides the client address (throttling, limits)',
    ),
  RUN_WORKERS: z
    .enum(['auto', 'inline', 'off'])
    .default('auto')
    .describe(
      'with Redis, `auto`: the API registers the recurring jobs and enqueues, `npm run worker` processes; `inline`: the API ' +
        'processes the queues too. Without Redis, `auto` and `inline` run jobs in-process. `off`: no job runner in the API',
    ),
  GRAPHIQL: flag
    .default(true)
    .describe('serve `/graphiql`, where a browser opening `/graphql` is sent (otherwise `/` redirects to the REST docs)'),
};

const stores = {
  DATABASE_URL: optionalUrl.describe('PostgreSQL URL; unset: the embedded PGlite in `DATA_DIR`'),
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(10)
    .describe('connections to the database per process (on the embedded database they take turns on its one session)'),
  DATABASE_POOL_TIMEOUT: duration
    .prefault('5s')
    .describe('how long a request waits for a free connection; then it answers 503 `SERVICE_BUSY` with `Retry-After`'),
  DATABASE_TRANSACTION_TIMEOUT: duration.prefault('5s').describe('longest interactive transaction of a request'),
  DATABASE_PREPARED_STATEMENTS: flag
    .default(true)
    .describe(
      'each PostgreSQL connection prepares the statements it runs and reuses them (parsed once instead of on every query, ' +
        'still planned for its values); `false` behind a pooler in transaction mode that cannot keep prepared statements ' +
        '(PgBouncer before 1.21)',
    ),
  EMBEDDED_SHARED_BUFFERS: z
    .string()
    .regex(/^[1-9]\d{0,5}(kB|MB|GB)$/, 'must be a PostgreSQL size such as 32MB')
    .default('32MB')
    .describe(
      "the embedded database's page cache (PostgreSQL's `shared_buffers`, which PGlite keeps in its memory): PostgreSQL's " +
        "default of 128MB costs about 140 MiB more resident memory; the files are in the operating system's cache as well",
    ),
  REDIS_URL: optionalUrl.describe(
    'Redis for the event bus, BullMQ jobs, the result cache and login throttling; unset: all in-process (revocations are always in PostgreSQL)',
  ),
  REDIS_PREFIX: z.string().default('violet').describe('prefix of every Redis key and queue (several instances can share one Redis)'),
  REDIS_COMMAND_TIMEOUT: duration
    .prefault('2s')
    .describe('longest Redis command on the request path before it counts as failed ([Redis outages](redis-outage.md))'),
};

const signIn = {
  JWT_SECRET: z
    .string()
    .min(32, 'JWT_SECRET must be at least 32 characters')
    .optional()
    .describe(
      'HS256 signing secret, at least 32 characters; unset: a random one kept in `DATA_DIR/jwt-secret` (every API process must then ' +
        'share `DATA_DIR`). The keys of secrets stored in the database (the SMTP password) derive from it: changing it makes them unreadable',
    ),
  JWT_TTL: duration.prefault('8h').describe('lifetime of session tokens'),
  SESSION_CACHE: duration
    .prefault('1s')
    .pipe(z.number().max(60_000, 'SESSION_CACHE is at most 60s'))
    .describe(
      "how long a token's user and revocation, once read, answer its next requests (0: read on every request; at most 60s); " +
        'changes made through the service take effect at once in every process sharing the Redis event bus, changes written ' +
        'to the database by hand within this time',
    ),
  CATALOG_CACHE_MB: z.coerce
    .number()
    .min(0)
    .max(1024)
    .default(32)
    .describe(
      'memory for answers of ATT&CK catalog reads (the technique list), kept per catalog version and kind of caller, ' +
        'counted in characters of their JSON (a GraphQL answer four times, for its objects); every request still reads ' +
        'the version, so a change is seen at once (0: keep none)',
    ),
  ADMIN_PASSWORD: z
    .string()
    .min(12, 'ADMIN_PASSWORD must be at least 12 characters')
    .optional()
    .describe(
      'password of the first `admin` (at least 12 characters), used only while the database has no user; unset: generated, printed once',
    ),
  COOKIE_SECURE: z
    .enum(['auto', 'true', 'false'])
    .default('auto')
    .describe(
      '`Secure` flag of the `svc_token` and `svc_sso_request` cookies (`auto`: when the request is HTTPS); with it the SSO request cookie is `SameSite=None`',
    ),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5).describe('failed logins per username and client address before a lockout'),
  LOGIN_LOCKOUT: duration.prefault('15m').describe('how long those failures count and the lockout lasts'),
  ALLOWED_ORIGINS: originList
    .prefault('')
    .describe(
      "further origins (comma-separated) of this service's own pages besides `PUBLIC_URL` (neither set: the request's own host); " +
        'cookie-authenticated writes and WebSocket upgrades from other origins are refused',
    ),
  DEBUG_ERRORS: flag.default(false).describe('stack traces in GraphQL error answers (development only)'),
};

const rateLimits = {
  RATE_LIMIT_ENABLED: flag.default(true).describe('request budgets per signed-in user, or per client address'),
  RATE_LIMIT_WINDOW: duration.prefault('1m').describe('the window of every budget'),
  RATE_LIMIT_READS: z.coerce.number().int().min(1).default(600).describe('REST GETs and GraphQL queries per window'),
  RATE_LIMIT_WRITES: z.coerce.number().int().min(1).default(120).describe('REST writes and GraphQL mutations per window'),
  RATE_LIMIT_EXPENSIVE: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .describe('report documents, syncs, risk computations and snapshots per window (REST rows marked `expensive`)'),
  RATE_LIMIT_EXEMPT_LOOPBACK: flag.default(true).describe('loopback clients (127.0.0.0/8, ::1) are never throttled'),
};

const evidence = {
  S3_ENDPOINT: optionalUrl.describe(
    'S3-compatible object storage for evidence (e.g. `http://minio:9000`); unset: files under `DATA_DIR/evidence`',
  ),
  S3_ACCESS_KEY: z.string().optional().describe('access key for `S3_ENDPOINT`'),
  S3_SECRET_KEY: z.string().optional().describe('secret key for `S3_ENDPOINT`'),
  S3_BUCKET: z.string().min(3).default('violet-evidence').describe('bucket, created at start when missing'),
  S3_REGION: z.string().default('us-east-1').describe('region used for signing'),
  S3_PATH_STYLE: flag.default(true).describe('path-style addressing (MinIO and most self-hosted stores)'),
  EVIDENCE_MAX_SIZE: size.prefault('100MB').describe('largest evidence file; larger uploads answer 413'),
  DOWNLOAD_URL_TTL: duration.prefault('15m').describe('lifetime of presigned (S3) or service-signed (disk) download links'),
};

const source = (name: string) =>
  z.string().optional().describe(`where ${name} is read from until an admin sets a location through \`/data-sources\``);

const sources = {
  ATTACK_ENTERPRISE_SOURCE: source('MITRE ATT&CK Enterprise'),
  D3FEND_SOURCE: source('MITRE D3FEND'),
  NIST_800_53_SOURCE: source('NIST SP 800-53'),
  CSA_CCM_SOURCE: source('the CSA Cloud Controls Matrix'),
  ATOMIC_RED_TEAM_SOURCE: source('Atomic Red Team'),
  SIGMA_SOURCE: source('the Sigma rules'),
  SOURCE_SYNC_SCHEDULES: flag.default(true).describe('`false`: no recurring data-source syncs (manual syncs still work)'),
  SYNC_LEASE: duration
    .prefault('45s')
    .describe('a running sync holds its source by a lease; once it expires (the process died) the next sync takes over'),
  SYNC_HEARTBEAT: duration.prefault('10s').describe('how often a running sync renews its lease'),
  SOURCE_ALLOWED_HOSTS: allowList.describe(
    'internal mirrors knowledge-source fetches may reach although not public ([outgoing requests](outgoing-requests.md))',
  ),
};

const graphqlLimits = {
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(4_000_000).describe("most list items one operation's answer may hold"),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(12).describe('deepest nesting of one document'),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(150).describe('most aliases in one document'),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).default(5_000).describe('most lexical tokens in one document'),
  GRAPHQL_MAX_BODY: size.prefault('256KB').describe('largest `/graphql` request body'),
  GRAPHQL_MAX_ANSWER: size.prefault('16MB').describe('largest answer of one operation'),
  GRAPHQL_DEADLINE: duration.prefault('5s').describe('longest execution of one operation'),
  GRAPHQL_INTROSPECTION: z.enum(['signed-in', 'anyone', 'off']).default('signed-in').describe('who may introspect the schema'),
  WS_MAX_PAYLOAD: size.prefault('64KB').describe('largest WebSocket message'),
  WS_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(1_000).describe('open WebSockets in the process'),
  WS_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(1).default(20).describe('open WebSockets per client address'),
  WS_MAX_SUBSCRIPTIONS_PER_SOCKET: z.coerce.number().int().min(1).default(20).describe('subscriptions on one WebSocket'),
  WS_MAX_SUBSCRIPTIONS_PER_USER: z.coerce
    .number()
    .int()
    .min(1)
    .default(50)
    .describe("subscriptions of one user across the process's WebSockets"),
  WS_CONNECTION_INIT_TIMEOUT: duration.prefault('3s').describe('time a new WebSocket has to send `connection_init`'),
};

const webhooks = {
  WEBHOOK_ALLOWED_HOSTS: allowList.describe(
    'internal webhook receivers (e.g. a SIEM) that may be reached although not public ([webhooks](webhooks.md#server-side-request-forgery))',
  ),
  WEBHOOK_TIMEOUT: duration.prefault('10s').describe('longest webhook delivery attempt'),
  WEBHOOK_RETRY_SCHEDULE: durationList.prefault('5s,30s,2m,10m,30m,2h,6h').describe('delays before each retry of a failed delivery'),
  WEBHOOK_DISABLE_AFTER: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .describe('failed attempts in a row that disable a webhook (admins are told)'),
};

const tracker = {
  TRACKER_ALLOWED_HOSTS: allowList.describe(
    'internal issue trackers (Jira Data Center, GitHub Enterprise) that may be reached although not public ([tracker](tracker.md))',
  ),
  TRACKER_TIMEOUT: duration.prefault('15s').describe('longest request to an issue tracker'),
  TRACKER_SYNC_INTERVAL: duration.prefault('5m').describe('how often linked tracker issues are read back'),
  TRACKER_MAX_RETRY_WAIT: duration
    .prefault('10s')
    .describe('longest `Retry-After` a tracker request waits for in place; longer ones are retried by the next sync'),
};

const detection = {
  DETECTION_VALIDATION_TTL: duration.prefault('90d').describe('how long a detection validation stays fresh'),
};

const reports = {
  PDF_WORKERS: z.coerce
    .number()
    .int()
    .min(1)
    .max(8)
    .default(1)
    .describe('PDF workers that lay out and write reports off the request thread (1 to 8; started at the first PDF)'),
  PDF_QUEUE: z.coerce.number().int().min(0).default(16).describe('PDF renderings that may wait for a worker; then 503'),
  PDF_RENDER_TIMEOUT: timeLimit('30s').describe('longest rendering of one PDF, at most 10m (the worker is then replaced; 503)'),
};

const email = {
  SMTP_URL: smtpUrl
    .optional()
    .describe(
      'the SMTP server for notification e-mails: `smtp://user:password@host:587` (STARTTLS required), `smtps://…:465` (TLS), ' +
        '`?security=none` for a plain relay; user and password URL-encoded',
    ),
  EMAIL_FROM: z.email('must be an e-mail address').optional().describe('sender address of every e-mail'),
  SMTP_ALLOWED_HOSTS: allowList.describe(
    "internal SMTP servers the stored settings may name besides `SMTP_URL`'s own (an entry without a port admits 25, 465 and 587)",
  ),
};

const sso = {
  SSO_MAX_RESPONSE_SIZE: size
    .prefault('64KB')
    .refine((bytes) => bytes <= 96 * 1024, 'must be at most 96KB (the callback reads at most 160 KB of form)')
    .describe('largest decoded SAMLResponse (at most 96KB)'),
  SSO_XML_WORKERS: z.coerce
    .number()
    .int()
    .min(1)
    .max(16)
    .default(2)
    .describe('XML workers that verify responses off the request thread (1 to 16)'),
  SSO_XML_QUEUE: z.coerce.number().int().min(0).default(32).describe('responses that may wait for a worker; then 503'),
  SSO_XML_TIMEOUT: timeLimit('5s').describe('longest verification of one response, at most 10m'),
  SSO_ALLOW_SHA1: flag.default(false).describe('accept SHA-1 signatures and digests (otherwise only SHA-256 and stronger)'),
};

/** The variables by topic, with what the generated docs/configuration.md says of each topic (`npm run docs:config`). */
export const CONFIG_GROUPS = [
  { title: 'Server', about: 'How the process listens, logs and runs its jobs.', variables: server },
  {
    title: 'Database and Redis',
    about: 'Where state lives, and how long a request may wait for it ([operations](operations.md), [Redis outages](redis-outage.md)).',
    variables: stores,
  },
  {
    title: 'Sign-in and cross-site protection',
    about:
      "Session tokens, the first admin, login throttling, cookies and the origins of the service's own pages ([security](security.md)).",
    variables: signIn,
  },
  {
    title: 'Rate limits',
    about: 'General request budgets per signed-in user, or per client address ([rate limits](security-http.md#rate-limits)).',
    variables: rateLimits,
  },
  {
    title: 'Evidence storage',
    about: 'S3-compatible object storage, or `DATA_DIR/evidence` ([evidence](evidence.md)).',
    variables: evidence,
  },
  {
    title: 'Knowledge sources',
    about:
      'Each source is read from an http(s) URL, a `file:` URL or an absolute path; unset, from its public location. Outgoing fetches ' +
      'reach only public unicast addresses plus `SOURCE_ALLOWED_HOSTS`: host names, addresses or CIDRs, comma-separated, each with ' +
      '`:port` or `:*` (without one, only 80 and 443) ([data sources](data-sources.md)).',
    variables: sources,
  },
  {
    title: 'GraphQL and WebSocket limits',
    about: 'What one operation, one document and one connection may cost ([GraphQL limits](graphql-limits.md)).',
    variables: graphqlLimits,
  },
  {
    title: 'Webhooks',
    about:
      'Deliveries, their retries, and the internal receivers they may reach (the same list format as `SOURCE_ALLOWED_HOSTS`) ([webhooks](webhooks.md)).',
    variables: webhooks,
  },
  {
    title: 'Issue tracker',
    about:
      'Requests to Jira and GitHub, and the internal trackers they may reach (the same list format as `SOURCE_ALLOWED_HOSTS`) ([tracker](tracker.md)).',
    variables: tracker,
  },
  { title: 'Detection operations', about: '[Detection lifecycle](detection-lifecycle.md).', variables: detection },
  { title: 'Reports', about: 'Rendering the PDF documents of `/reports/generate` ([reports](reports.md)).', variables: reports },
  {
    title: 'E-mail',
    about:
      "The deployment's SMTP server and sender. Settings stored through `/system/email-config` override them; e-mail is on by default " +
      'when `SMTP_URL` and `EMAIL_FROM` are both set ([e-mail](email.md)).',
    variables: email,
  },
  {
    title: 'SAML sign-in',
    about: 'Limits of the SAML callback against hostile responses ([SSO](sso.md#hostile-responses)).',
    variables: sso,
  },
] as const;

const envSchema = z.object({
  ...server,
  ...stores,
  ...signIn,
  ...rateLimits,
  ...evidence,
  ...sources,
  ...graphqlLimits,
  ...webhooks,
  ...tracker,
  ...detection,
  ...reports,
  ...email,
  ...sso,
});

export type Config = z.infer<typeof envSchema>;

/** Reads and validates the environment; throws one error listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = envSchema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
}
