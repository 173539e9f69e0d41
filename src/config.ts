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

const duration = z.string().transform((value, ctx) => {
  try {
    return parseDuration(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

const sizePattern = /^(\d+)\s*(b|kb|mb|gb)?$/i;
const unitBytes = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 } as const;

/** Parses "100MB", "512kb", "1GB" or a bare number of bytes. */
export function parseSize(text: string): number {
  const match = sizePattern.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a size (use e.g. 100MB, 512KB, 1GB)`);
  return Number(match[1]) * unitBytes[(match[2] ?? 'b').toLowerCase() as keyof typeof unitBytes];
}

const size = z.string().transform((value, ctx) => {
  try {
    return parseSize(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const optionalUrl = z.string().url().optional();

/** "https://a.example, https://b.example:8443" → normalised origins (scheme://host[:port], no path). */
const originList = z.string().transform((value, ctx) => {
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
});

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
  });

/** "5s,30s,2m": durations in milliseconds, at least one. */
const durationList = z.string().transform((value, ctx) => {
  try {
    const list = value.split(',').map(parseDuration);
    if (!list.length) throw new Error('at least one duration is needed');
    return list;
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

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
const smtpUrl = z.string().transform((value, ctx): SmtpServer => {
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
});

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  REDIS_PREFIX: z.string().default('violet'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  JWT_TTL: duration.prefault('8h'),
  ADMIN_PASSWORD: z.string().min(12, 'ADMIN_PASSWORD must be at least 12 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.string().default('false'),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCKOUT: duration.prefault('15m'),
  RATE_LIMIT_EXEMPT_LOOPBACK: flag.default(true),
  // General request budgets per signed-in user, or per client address (docs/security-http.md#rate-limits).
  RATE_LIMIT_ENABLED: flag.default(true),
  RATE_LIMIT_WINDOW: duration.prefault('1m'),
  RATE_LIMIT_READS: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_WRITES: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_EXPENSIVE: z.coerce.number().int().min(1).default(10),
  RUN_WORKERS: z.enum(['auto', 'inline', 'off']).default('auto'),
  GRAPHIQL: flag.default(true),
  // Evidence storage: S3-compatible object storage when S3_ENDPOINT is set, DATA_DIR/evidence otherwise.
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY: z.string().optional(),
  S3_SECRET_KEY: z.string().optional(),
  S3_BUCKET: z.string().min(3).default('violet-evidence'),
  S3_REGION: z.string().default('us-east-1'),
  S3_PATH_STYLE: flag.default(true),
  EVIDENCE_MAX_SIZE: size.prefault('100MB'),
  DOWNLOAD_URL_TTL: duration.prefault('15m'),
  // Initial location of each knowledge source (http(s) URL or local path); editable later through /data-sources.
  ATTACK_ENTERPRISE_SOURCE: z.string().optional(),
  D3FEND_SOURCE: z.string().optional(),
  NIST_800_53_SOURCE: z.string().optional(),
  CSA_CCM_SOURCE: z.string().optional(),
  ATOMIC_RED_TEAM_SOURCE: z.string().optional(),
  SIGMA_SOURCE: z.string().optional(),
  // Turns off every recurring data-source sync (useful in tests and air-gapped installs without mirrors).
  SOURCE_SYNC_SCHEDULES: flag.default(true),
  // GraphQL operation limits (docs/graphql-limits.md): cost, depth, aliases and tokens of a document, the size of a
  // /graphql body, the bytes and time of one answer, who may introspect, and the WebSocket frame size, connection
  // and subscription caps.
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(4_000_000),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(12),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(150),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).default(5_000),
  GRAPHQL_MAX_BODY: size.prefault('256KB'),
  GRAPHQL_MAX_ANSWER: size.prefault('16MB'),
  GRAPHQL_DEADLINE: duration.prefault('5s'),
  GRAPHQL_INTROSPECTION: z.enum(['signed-in', 'anyone', 'off']).default('signed-in'),
  WS_MAX_SUBSCRIPTIONS_PER_SOCKET: z.coerce.number().int().min(1).default(20),
  WS_MAX_SUBSCRIPTIONS_PER_USER: z.coerce.number().int().min(1).default(50),
  WS_MAX_PAYLOAD: size.prefault('64KB'),
  WS_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(1_000),
  WS_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(1).default(20),
  WS_CONNECTION_INIT_TIMEOUT: duration.prefault('3s'),
  // Faults: a running sync holds its source by a lease its heartbeat renews; an expired lease means its process
  // died and the next sync takes over. The embedded database refuses a DATA_DIR another live process holds.
  SYNC_LEASE: duration.prefault('45s'),
  SYNC_HEARTBEAT: duration.prefault('10s'),
  // Cross-site protection: origins the browser UI may be served from besides PUBLIC_URL (when neither is set,
  // the request's own host), and whether error answers may carry stack traces (never by default).
  ALLOWED_ORIGINS: originList.prefault(''),
  DEBUG_ERRORS: flag.default(false),
  // Outgoing fetches of knowledge sources only reach public unicast addresses, plus these internal mirrors:
  // comma-separated host names, addresses or CIDRs, each with an optional :port or :* (without one, only 80 and
  // 443), e.g. "mirror.internal:8443,10.8.0.0/16".
  SOURCE_ALLOWED_HOSTS: allowList,
  // Webhook deliveries (docs/webhooks.md): the same rule for receivers (e.g. an internal SIEM), the time one
  // attempt may take, the delays before each retry, and how many failed attempts in a row disable a webhook.
  WEBHOOK_ALLOWED_HOSTS: allowList,
  WEBHOOK_TIMEOUT: duration.prefault('10s'),
  WEBHOOK_RETRY_SCHEDULE: durationList.prefault('5s,30s,2m,10m,30m,2h,6h'),
  // Detection operations (docs/detection-lifecycle.md): how long a validation stays fresh.
  DETECTION_VALIDATION_TTL: duration.prefault('90d'),
  WEBHOOK_DISABLE_AFTER: z.coerce.number().int().min(1).default(20),
  // Overload and outages: database pool size, how long a request waits for a connection (then 503), how long
  // a transaction may run, and how long a request-path Redis command may take before it counts as failed.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DATABASE_POOL_TIMEOUT: duration.prefault('5s'),
  DATABASE_TRANSACTION_TIMEOUT: duration.prefault('5s'),
  REDIS_COMMAND_TIMEOUT: duration.prefault('2s'),
  // Outgoing e-mail (docs/email.md): the deployment's SMTP server and sender address. Settings stored through
  // /system/email-config override them; e-mail is on by default when both are set.
  SMTP_URL: smtpUrl.optional(),
  // SAML callback (docs/sso.md#hostile-responses): the largest decoded SAMLResponse, the XML workers that verify
  // responses off the request thread, how many responses may wait for one (then 503), how long one may take, and
  // whether SHA-1 signatures and digests are accepted (off: only SHA-256 and stronger).
  SSO_MAX_RESPONSE_SIZE: size
    .prefault('64KB')
    .refine((bytes) => bytes <= 96 * 1024, 'must be at most 96KB (the callback reads at most 160 KB of form)'),
  SSO_XML_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  SSO_XML_QUEUE: z.coerce.number().int().min(0).default(32),
  SSO_XML_TIMEOUT: duration.prefault('5s'),
  SSO_ALLOW_SHA1: flag.default(false),
  EMAIL_FROM: z.email('must be an e-mail address').optional(),
  // SMTP servers that are not public but may be reached (an internal relay), as for webhooks; an entry without
  // a port admits 25, 465 and 587. SMTP_URL's own host and port are admitted without being listed.
  SMTP_ALLOWED_HOSTS: allowList,
});

export type Config = z.infer<typeof envSchema>;

/** Reads and validates the environment; throws one error listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = envSchema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
}
