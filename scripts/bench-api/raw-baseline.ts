/**
 * The measuring stick of `npm run bench:api`, not product code: a hand-written `node:http` + `pg` server doing the work
 * Violet does for three reads, and nothing else. Same pool size as Violet's default, same session options, the same
 * HS256 check of the session token with `jose`, the same revocation lookup and user read per request (one statement, as
 * Violet makes it), the same SQL ordering, limits and bounded count, and answers byte for byte identical to Violet's REST adapter:
 *
 *   GET /api/v1/techniques          (active techniques by ttp id, at most 1000)
 *   GET /api/v1/tests?limit=50      (newest first, with the page's total and next cursor)
 *   GET /api/v1/tests/{id}          (every field, its evidence metadata and detection evaluations)
 *
 * Anything else answers 404. Evidence download links are not produced (the benchmark's dataset holds no evidence): a
 * test with evidence answers 501 instead of an answer that would differ. Run by scripts/bench-api.ts, bundled with
 * esbuild so it starts as plain JavaScript like `node dist/src/main.js`.
 *
 * Environment: DATABASE_URL, JWT_SECRET, PORT, HOST (default 127.0.0.1), DATABASE_POOL_SIZE (default 10).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { errors as joseErrors, jwtVerify } from 'jose';
import pg from 'pg';
import type { Role } from '../../src/auth/roles.ts';
import { cursorOf, ESTIMATE_ALONE_FROM, ESTIMATE_TTL_MS, EXACT_TOTAL_MAX } from '../../src/db/page-totals.ts';
import { jsonAnswer } from '../../src/http/json-body.ts';
import { PREPARED_SESSION_OPTIONS, SESSION_OPTIONS } from '../../src/db/session-options.ts';
import { PREPARED_STATEMENTS_MAX, statementNames } from '../../src/db/statement-names.ts';
import { techniqueRoles } from '../../src/modules/techniques/permissions.ts';
import { testLifecycle, TEST_STATES } from '../../src/modules/test-runs/state-machine.ts';
import { testRoles } from '../../src/modules/test-runs/permissions.ts';

const env = process.env;
// The key imported once, as Violet does (src/auth/tokens.ts): given bytes, jose imports one for every token.
const secret = crypto.subtle.importKey('raw', new TextEncoder().encode(env.JWT_SECRET ?? ''), { name: 'HMAC', hash: 'SHA-256' }, false, [
  'verify',
]);
const pool = new pg.Pool({
  connectionString: env.DATABASE_URL,
  max: Number(env.DATABASE_POOL_SIZE ?? 10),
  connectionTimeoutMillis: 5_000,
  // Violet's session settings for prepared statements (src/db/session-options.ts).
  options: `${SESSION_OPTIONS} ${PREPARED_SESSION_OPTIONS}`,
});

/** Each statement prepared once per connection and then run by name, as Violet runs its statements (src/db/client.ts). */
const nameOf = statementNames(PREPARED_STATEMENTS_MAX, 'raw_');
function query<Row extends pg.QueryResultRow = Record<string, any>>(text: string, values?: unknown[]) {
  return pool.query<Row>({ name: nameOf({ sql: text }), text, values });
}

const TECHNIQUE_LIST_MAX = 1000;
const TEST_PAGE = { defaultLimit: 50, maxLimit: 200 };
const EVIDENCE_MAX = 500;
const EVALUATION_MAX = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Valid transitions per state: computed once from the product's table, as a hand-written server would hard-code them. */
const VALID_TRANSITIONS = new Map(TEST_STATES.map((state) => [state, testLifecycle.validTransitions(state)]));

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}

interface Caller {
  userId: string;
  role: Role;
}

/** Violet's token check: HS256 signature, expiry, claim shape, then revocation and the user (active, session version). */
async function authenticate(req: IncomingMessage): Promise<Caller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) throw new HttpError(401, 'UNAUTHENTICATED', 'Authentication required');
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(match[1], await secret, {
      algorithms: ['HS256'],
      requiredClaims: ['sub', 'jti', 'exp', 'iat', 'sv'],
    }));
  } catch (error) {
    throw new HttpError(401, 'UNAUTHENTICATED', error instanceof joseErrors.JWTExpired ? 'Token has expired' : 'Invalid token');
  }
  const { sub, jti, sv } = claims;
  if (typeof sub !== 'string' || !UUID.test(sub) || typeof jti !== 'string' || !UUID.test(jti) || !Number.isInteger(sv)) {
    throw new HttpError(401, 'UNAUTHENTICATED', 'Invalid token');
  }
  const { rows } = await query<{
    id: string | null;
    role: Role;
    is_active: boolean;
    session_version: number;
    must_change_password: boolean;
    revoked: boolean;
  }>(
    `SELECT EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = $1) AS revoked, u.id, u.role, u.is_active, u.session_version,
            u.must_change_password
     FROM (SELECT 1) AS one LEFT JOIN users u ON u.id = $2`,
    [jti, sub],
  );
  if (rows[0].revoked) throw new HttpError(401, 'UNAUTHENTICATED', 'Token has been revoked');
  const user = rows[0];
  if (user.id === null || !user.is_active) throw new HttpError(401, 'UNAUTHENTICATED', 'Account is disabled');
  if (user.session_version !== sv) throw new HttpError(401, 'UNAUTHENTICATED', 'Token predates a password change');
  if (user.must_change_password) throw new HttpError(403, 'PASSWORD_CHANGE_REQUIRED', 'Password change required');
  return { userId: user.id, role: user.role };
}

function allow(caller: Caller, roles: readonly Role[]): void {
  if (!roles.includes(caller.role)) throw new HttpError(403, 'FORBIDDEN', 'Forbidden');
}

const TECHNIQUE_LIST_SQL = `
  SELECT id, ttp_id, name, tactic, tactics, status_global, platforms, review_required,
         is_custom, is_subtechnique, parent_ttp_id, revoked, deprecated
  FROM techniques WHERE revoked = false AND deprecated = false ORDER BY ttp_id ASC LIMIT ${TECHNIQUE_LIST_MAX}`;

/** A test's columns under their REST names, in the REST answer's order (the technique is spliced in after technique_id). */
const TEST_COLUMNS = `t.id, t.technique_id,
  k.id AS k_id, k.ttp_id AS k_ttp_id, k.name AS k_name, k.tactic AS k_tactic, k.status_global AS k_status_global,
  t.name, t.description, t.platform, t.procedure_text, t.tool_used, t.attack_success, t.red_summary,
  t.detection_result, t.blue_summary, t.state, t.execution_date, t.red_submitted_at, t.blue_submitted_at,
  t.red_validation_status, t.red_validation_notes, t.red_validated_by, t.red_validated_at,
  t.blue_validation_status, t.blue_validation_notes, t.blue_validated_by, t.blue_validated_at, t.decided_at,
  t.remediation_steps, t.remediation_status, t.remediation_assignee, t.remediation_completed_at, t.data_classification,
  t.created_by, t.assigned_to, t.campaign_id, t.template_id, t.retest_of, t.lineage_id, t.elapsed_ms, t.timer_started_at,
  t.version, t.created_at, t.updated_at`;

type Row = Record<string, any>;

function testBody(row: Row, now: number): Row {
  const running = row.timer_started_at ? Math.max(0, now - row.timer_started_at.getTime()) : 0;
  const pending =
    row.state === 'in_review' ? [...(row.red_validation_status ? [] : ['red']), ...(row.blue_validation_status ? [] : ['blue'])] : [];
  return {
    id: row.id,
    technique_id: row.technique_id,
    technique: { id: row.k_id, ttp_id: row.k_ttp_id, name: row.k_name, tactic: row.k_tactic, status_global: row.k_status_global },
    name: row.name,
    description: row.description,
    platform: row.platform,
    procedure_text: row.procedure_text,
    tool_used: row.tool_used,
    attack_success: row.attack_success,
    red_summary: row.red_summary,
    detection_result: row.detection_result,
    blue_summary: row.blue_summary,
    state: row.state,
    valid_transitions: VALID_TRANSITIONS.get(row.state),
    execution_date: row.execution_date,
    red_submitted_at: row.red_submitted_at,
    blue_submitted_at: row.blue_submitted_at,
    red_validation_status: row.red_validation_status,
    red_validation_notes: row.red_validation_notes,
    red_validated_by: row.red_validated_by,
    red_validated_at: row.red_validated_at,
    blue_validation_status: row.blue_validation_status,
    blue_validation_notes: row.blue_validation_notes,
    blue_validated_by: row.blue_validated_by,
    blue_validated_at: row.blue_validated_at,
    pending_validation_sides: pending,
    decided_at: row.decided_at,
    remediation_steps: row.remediation_steps,
    remediation_status: row.remediation_status,
    remediation_assignee: row.remediation_assignee,
    remediation_completed_at: row.remediation_completed_at,
    data_classification: row.data_classification,
    created_by: row.created_by,
    assigned_to: row.assigned_to,
    campaign_id: row.campaign_id,
    template_id: row.template_id,
    retest_of: row.retest_of,
    lineage_id: row.lineage_id,
    elapsed_seconds: Math.floor((Number(row.elapsed_ms) + running) / 1000),
    timer_running: row.timer_started_at != null,
    timer_started_at: row.timer_started_at,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function listTechniques(): Promise<unknown> {
  return (await query(TECHNIQUE_LIST_SQL)).rows;
}

function pageParameter(url: URL, name: string, fallback: number, max: number): number {
  const text = url.searchParams.get(name);
  if (text === null || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > max) throw new HttpError(400, 'VALIDATION_ERROR', `${name} is out of range`);
  return value;
}

/**
 * The same page as Violet's: one row past it for the cursor, the total counted up to 10,001 and estimated beyond, or
 * not counted at all when the statistics hold ESTIMATE_ALONE_FROM tests or more.
 */
async function listTests(url: URL): Promise<unknown> {
  const offset = pageParameter(url, 'offset', 0, 2 ** 31 - 1);
  const limit = pageParameter(url, 'limit', TEST_PAGE.defaultLimit, TEST_PAGE.maxLimit);
  const [items, { total, totalExact }] = await Promise.all([
    query(
      `SELECT ${TEST_COLUMNS} FROM tests t JOIN techniques k ON k.id = t.technique_id
       ORDER BY t.created_at DESC, t.id DESC LIMIT $1 OFFSET $2`,
      [limit + 1, offset],
    ),
    totalOfTests(),
  ]);
  const now = Date.now();
  const rows = items.rows.slice(0, limit);
  const last = rows.at(-1);
  const nextCursor = items.rows.length > limit && last ? cursorOf({ createdAt: last.created_at, id: last.id }) : null;
  return { items: rows.map((row) => testBody(row, now)), total, total_exact: totalExact, offset, limit, next_cursor: nextCursor };
}

async function totalOfTests(): Promise<{ total: number; totalExact: boolean }> {
  const estimated = await estimatedTests();
  if (estimated >= ESTIMATE_ALONE_FROM) return { total: estimated, totalExact: false };
  const count = await query<{ count: number }>('SELECT count(*)::int AS count FROM (SELECT 1 FROM tests LIMIT $1) AS page', [
    EXACT_TOTAL_MAX + 1,
  ]);
  const counted = count.rows[0].count;
  if (counted <= EXACT_TOTAL_MAX) return { total: counted, totalExact: true };
  return { total: Math.max(counted, await estimatedTests(counted)), totalExact: false };
}

/** The statistics' row count of tests, read at most every ESTIMATE_TTL_MS, as Violet reads it. */
let estimate = { rows: 0, until: 0 };
async function estimatedTests(atLeast = 0): Promise<number> {
  const now = performance.now();
  if (estimate.until > now && estimate.rows >= atLeast) return estimate.rows;
  const read = await query<{ rows: number }>("SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = to_regclass('tests')");
  estimate = { rows: Math.max(0, Math.round(read.rows[0]?.rows ?? 0)), until: now + ESTIMATE_TTL_MS };
  return estimate.rows;
}

async function getTest(id: string): Promise<unknown> {
  if (!UUID.test(id)) throw new HttpError(400, 'VALIDATION_ERROR', 'id must be a UUID');
  const [test, evidences, evaluations, trackerLinks] = await Promise.all([
    query(`SELECT ${TEST_COLUMNS} FROM tests t JOIN techniques k ON k.id = t.technique_id WHERE t.id = $1`, [id]),
    query('SELECT id FROM evidence WHERE test_id = $1 ORDER BY uploaded_at ASC, id ASC LIMIT $2', [id, EVIDENCE_MAX]),
    query(
      `SELECT id, test_id, rule_id, rule_title, rule_source, rule_external_id, rule_author, triggered, notes,
              evaluated_by, evaluated_at
       FROM detection_evaluations WHERE test_id = $1 ORDER BY evaluated_at DESC, id DESC LIMIT $2`,
      [id, EVALUATION_MAX],
    ),
    query(
      `SELECT id, status, issue_key, issue_url, tracker_status, last_error
       FROM tracker_links WHERE test_id = $1 AND subject_type = 'test' ORDER BY id LIMIT 1`,
      [id],
    ),
  ]);
  if (!test.rowCount) throw new HttpError(404, 'NOT_FOUND', `Test ${id} not found`);
  if (evidences.rowCount) throw new HttpError(501, 'NOT_IMPLEMENTED', 'Evidence download links are not part of the baseline');
  return {
    ...testBody(test.rows[0], Date.now()),
    evidences: [],
    detection_evaluations: evaluations.rows,
    tracker_issue: trackerLinks.rows[0] ?? null,
  };
}

async function route(req: IncomingMessage): Promise<unknown> {
  const url = new URL(req.url ?? '/', 'http://baseline');
  if (req.method === 'GET' && url.pathname === '/api/v1/system/health') return { status: 'ok' };
  if (req.method !== 'GET') throw new HttpError(404, 'NOT_FOUND', 'Not found');
  if (url.pathname === '/api/v1/techniques') {
    allow(await authenticate(req), techniqueRoles.read);
    return listTechniques();
  }
  if (url.pathname === '/api/v1/tests') {
    allow(await authenticate(req), testRoles.read);
    return listTests(url);
  }
  const single = /^\/api\/v1\/tests\/([^/]+)$/.exec(url.pathname);
  if (single) {
    allow(await authenticate(req), testRoles.read);
    return getTest(decodeURIComponent(single[1]));
  }
  throw new HttpError(404, 'NOT_FOUND', 'Not found');
}

/**
 * Written as Violet writes its answers (src/http/json-body.ts): a list row by row into one buffer, since one large
 * string of JSON costs V8 a large-object allocation (an eighth of a page's CPU with `JSON.stringify` alone).
 */
function answer(res: ServerResponse, status: number, body: unknown): void {
  const bytes = jsonAnswer(body) ?? 'null';
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(bytes) });
  res.end(bytes);
}

const server = createServer((req, res) => {
  route(req).then(
    (body) => answer(res, 200, body),
    (error: unknown) => {
      if (error instanceof HttpError) answer(res, error.status, { detail: error.message, code: error.code });
      else {
        console.error(error);
        answer(res, 500, { detail: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
      }
    },
  );
  req.resume();
});
server.keepAliveTimeout = 65_000;

server.listen(Number(env.PORT ?? 0), env.HOST ?? '127.0.0.1', () => {
  const address = server.address();
  console.log(`raw baseline listening on ${typeof address === 'object' && address ? address.port : address}`);
});

const stop = () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
