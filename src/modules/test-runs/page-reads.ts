import type { Database } from '../../db/client.ts';
import type { Keyset } from '../../db/page-totals.ts';
import { escapeLike } from '../../db/search.ts';
import { Prisma, type Test, type TestState } from '../../generated/prisma/client.ts';
import type { TestQuery } from './store.ts';

/**
 * The test list's rows, read in SQL of its own. A page of 50 tests through Prisma's `findMany` cost 1.6–2.9 ms of
 * CPU on the event loop where the same statement through `$queryRaw` cost 1.0–1.3, and on the `pg` pool alone
 * 0.65–0.77 (scripts/bench-api.ts measures the whole request): Prisma builds each row three times, in its driver
 * adapter, its data mapper and its deserialiser, and a raw statement's rows twice. So the page is read here, on the
 * pool (src/db/raw-reads.ts), when its selection is the test's own columns and to-one relations' columns (what every
 * list in the product asks); any other selection (a to-many relation, a count) reads the page's ids here and its
 * rows through Prisma. Either way this file is the one definition of what the filter matches, for the rows and for
 * the count.
 */

/** A filter of the test list, checked and resolved (a technique named by its uuid). */
export interface TestFilter {
  state?: TestState | null;
  techniqueId?: string | null;
  campaignId?: string | null;
  withoutCampaign?: boolean | null;
  assignedTo?: string | null;
  createdBy?: string | null;
  platform?: string | null;
  pendingValidationSide?: 'red' | 'blue' | null;
}

/** The SQL condition of a filter on `tests AS t`: TRUE for none. */
export function testFilterSql(filter: TestFilter): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  if (filter.state) conditions.push(Prisma.sql`t.state = ${filter.state}::"TestState"`);
  if (filter.techniqueId) conditions.push(Prisma.sql`t.technique_id = ${filter.techniqueId}::uuid`);
  if (filter.campaignId) conditions.push(Prisma.sql`t.campaign_id = ${filter.campaignId}::uuid`);
  else if (filter.withoutCampaign) conditions.push(Prisma.sql`t.campaign_id IS NULL`);
  if (filter.assignedTo) conditions.push(Prisma.sql`t.assigned_to = ${filter.assignedTo}::uuid`);
  if (filter.createdBy) conditions.push(Prisma.sql`t.created_by = ${filter.createdBy}::uuid`);
  // Case-insensitive and literal: ILIKE with the pattern characters escaped (`equalsText` in Prisma's terms).
  if (filter.platform) conditions.push(Prisma.sql`t.platform ILIKE ${escapeLike(filter.platform)}`);
  if (filter.pendingValidationSide) {
    const pending = filter.pendingValidationSide === 'red' ? Prisma.sql`t.red_validation_status` : Prisma.sql`t.blue_validation_status`;
    conditions.push(Prisma.sql`t.state = 'in_review' AND ${pending} IS NULL`);
  }
  return conditions.length > 0 ? Prisma.join(conditions, ' AND ') : Prisma.sql`TRUE`;
}

/** How many tests match, counting at most `take` (src/db/page-totals.ts). */
export async function countTests(db: Database, where: Prisma.Sql, take: number): Promise<number> {
  const [row] = await db.rows<{ matching: number }>(Prisma.sql`
    SELECT count(*)::int AS matching FROM (SELECT 1 FROM tests t WHERE ${where} LIMIT ${take}) AS counted`);
  return row!.matching;
}

export interface PageWindow {
  where: Prisma.Sql;
  /** Rows after this one in (createdAt desc, id desc) order. */
  after: Keyset | null;
  skip: number;
  take: number;
}

/**
 * One page of tests, newest first (ties by id), with what `query` selects plus `createdAt` and `id` (a row's
 * cursor is made of them): typed as tests, as Prisma types a read with a selection known only at run time.
 */
export async function readTestPage(db: Database, query: TestQuery, window: PageWindow): Promise<Test[]> {
  const columns = columnsOf(query);
  if (columns) {
    const rows = await db.rows(Prisma.sql`SELECT ${columns.sql} FROM tests t ${columns.joins} ${pageClauses(window)}`);
    return (columns.nest ? rows.map(columns.nest) : rows) as unknown as Test[];
  }
  const ids = (await db.rows<{ id: string }>(Prisma.sql`SELECT t.id FROM tests t ${pageClauses(window)}`)).map(({ id }) => id);
  if (ids.length === 0) return [];
  const rows = await db.prisma.test.findMany({
    ...query,
    ...(query.select ? { select: { ...query.select, createdAt: true, id: true } } : {}),
    where: { id: { in: ids } },
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

function pageClauses({ where, after, skip, take }: PageWindow): Prisma.Sql {
  const keyset = after ? Prisma.sql` AND (t.created_at, t.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
  return Prisma.sql`WHERE ${where}${keyset} ORDER BY t.created_at DESC, t.id DESC LIMIT ${take} OFFSET ${skip}`;
}

/** A model's fields and their columns: a Record over Prisma's own list, so a column added to the schema must be named here. */
type Columns<Fields extends Record<string, string>> = Record<keyof Fields, string>;

/** A selection of every column. */
const allOf = (columns: Record<string, string>): Record<string, true> =>
  Object.fromEntries(Object.keys(columns).map((field) => [field, true]));

const TEST_COLUMNS: Columns<typeof Prisma.TestScalarFieldEnum> = {
  id: 'id',
  techniqueId: 'technique_id',
  name: 'name',
  description: 'description',
  platform: 'platform',
  procedureText: 'procedure_text',
  toolUsed: 'tool_used',
  attackSuccess: 'attack_success',
  redSummary: 'red_summary',
  detectionResult: 'detection_result',
  blueSummary: 'blue_summary',
  state: 'state',
  executionDate: 'execution_date',
  redSubmittedAt: 'red_submitted_at',
  blueSubmittedAt: 'blue_submitted_at',
  redValidationStatus: 'red_validation_status',
  redValidationNotes: 'red_validation_notes',
  redValidatedById: 'red_validated_by',
  redValidatedAt: 'red_validated_at',
  blueValidationStatus: 'blue_validation_status',
  blueValidationNotes: 'blue_validation_notes',
  blueValidatedById: 'blue_validated_by',
  blueValidatedAt: 'blue_validated_at',
  decidedAt: 'decided_at',
  remediationSteps: 'remediation_steps',
  remediationStatus: 'remediation_status',
  remediationAssigneeId: 'remediation_assignee',
  remediationCompletedAt: 'remediation_completed_at',
  dataClassification: 'data_classification',
  createdById: 'created_by',
  assignedToId: 'assigned_to',
  campaignId: 'campaign_id',
  templateId: 'template_id',
  retestOfId: 'retest_of',
  lineageId: 'lineage_id',
  elapsedMs: 'elapsed_ms',
  timerStartedAt: 'timer_started_at',
  version: 'version',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

const TECHNIQUE_COLUMNS: Columns<typeof Prisma.TechniqueScalarFieldEnum> = {
  id: 'id',
  ttpId: 'ttp_id',
  name: 'name',
  description: 'description',
  tactic: 'tactic',
  platforms: 'platforms',
  statusGlobal: 'status_global',
  reviewRequired: 'review_required',
  isCustom: 'is_custom',
  stixId: 'stix_id',
  tactics: 'tactics',
  isSubtechnique: 'is_subtechnique',
  parentTtpId: 'parent_ttp_id',
  attackVersion: 'attack_version',
  attackModified: 'attack_modified',
  revoked: 'revoked',
  revokedByTtpId: 'revoked_by_ttp_id',
  deprecated: 'deprecated',
  url: 'url',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

const USER_COLUMNS: Columns<typeof Prisma.UserScalarFieldEnum> = {
  id: 'id',
  username: 'username',
  email: 'email',
  passwordHash: 'password_hash',
  authSource: 'auth_source',
  role: 'role',
  isActive: 'is_active',
  displayName: 'display_name',
  mustChangePassword: 'must_change_password',
  trackerAccountId: 'tracker_account_id',
  preferences: 'preferences',
  passwordChangedAt: 'password_changed_at',
  sessionVersion: 'session_version',
  ssoIssuer: 'sso_issuer',
  ssoNameId: 'sso_name_id',
  isBootstrap: 'is_bootstrap',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

/**
 * The to-one relations a page reads in its own statement: the table and alias, its columns, and the test's column
 * that refers to it (a test without one has the relation null: an optional relation is a LEFT JOIN).
 */
const TO_ONE = {
  technique: toOne('techniques', 'k', TECHNIQUE_COLUMNS, 'technique_id', false),
  createdBy: toOne('users', 'cb', USER_COLUMNS, 'created_by', false),
  assignedTo: toOne('users', 'at', USER_COLUMNS, 'assigned_to', true),
  remediationAssignee: toOne('users', 'ra', USER_COLUMNS, 'remediation_assignee', true),
} as Record<string, ToOne | undefined>;

interface ToOne {
  table: string;
  alias: string;
  columns: Record<string, string>;
  /** Every column selected: the related record whole. */
  whole: Record<string, true>;
  key: string;
  optional: boolean;
}

function toOne(table: string, alias: string, columns: Record<string, string>, key: string, optional: boolean): ToOne {
  return { table, alias, columns, whole: allOf(columns), key, optional };
}

interface PageColumns {
  sql: Prisma.Sql;
  joins: Prisma.Sql;
  /** Gathers a relation's columns (`technique.name`) into its object; absent when no relation is read. */
  nest?: (row: Record<string, unknown>) => Record<string, unknown>;
}

const WHOLE_TEST = allOf(TEST_COLUMNS);

/** An identifier quoted for SQL (every name here comes from the maps above, never from a request). */
const quoted = (name: string) => `"${name}"`;

/** A map's own entry: a selection's key such as `constructor` names no column, not Object's. */
const own = <Value>(map: Record<string, Value>, key: string): Value | undefined => (Object.hasOwn(map, key) ? map[key] : undefined);

/**
 * The columns of a selection that is the test's own fields and to-one relations' own fields, or the whole test with
 * such relations (`include`), or null for any other (read through Prisma).
 */
function columnsOf(query: TestQuery): PageColumns | null {
  const selection: Record<string, unknown> = query.select ?? { ...WHOLE_TEST, ...query.include };
  const list: string[] = [`t.created_at AS "createdAt"`, `t.id AS "id"`];
  const joins: string[] = [];
  const relations: Relation[] = [];
  for (const [field, value] of Object.entries(selection)) {
    if (!value) continue;
    const column = own(TEST_COLUMNS, field);
    if (column) {
      if (value !== true) return null;
      if (field !== 'createdAt' && field !== 'id') list.push(`t.${column} AS ${quoted(field)}`);
      continue;
    }
    const relation = own(TO_ONE, field);
    if (!relation) return null;
    // `true` is the whole related record; otherwise only a selection of its own columns.
    const nested = value === true ? { select: relation.whole } : (value as { select?: Record<string, unknown> });
    if (!nested.select || Object.keys(nested).length !== 1) return null;
    const fields: Relation['fields'] = [];
    for (const [name, wanted] of Object.entries(nested.select)) {
      if (!wanted) continue;
      const column = own(relation.columns, name);
      if (wanted !== true || !column) return null;
      const key = `${field}.${name}`;
      list.push(`${relation.alias}.${column} AS ${quoted(key)}`);
      fields.push({ name, key });
    }
    // The row comes with the relation's property (null), which `nestRelations` sets: a property added to a row of
    // fifty by a computed key would make V8 turn the row into a dictionary, slower for every field read after.
    list.push(`NULL AS ${quoted(field)}`);
    const on = `${relation.alias}.id = t.${relation.key}`;
    joins.push(`${relation.optional ? 'LEFT JOIN' : 'JOIN'} ${relation.table} ${relation.alias} ON ${on}`);
    // Whether the test refers to one (the relation is null otherwise).
    const present = `${field}.`;
    if (relation.optional) list.push(`t.${relation.key} IS NOT NULL AS ${quoted(present)}`);
    relations.push({ name: field, fields, present: relation.optional ? present : null });
  }
  return {
    sql: Prisma.raw(list.join(', ')),
    joins: Prisma.raw(joins.join(' ')),
    nest: relations.length > 0 ? (row) => nestRelations(row, relations) : undefined,
  };
}

/** A to-one relation read in the page's statement: its fields and the columns (`technique.name`) they come in. */
interface Relation {
  name: string;
  fields: { name: string; key: string }[];
  /** The column saying whether an optional relation is there. */
  present: string | null;
}

/** The flat columns stay on the row (nothing reads them; deleting would slow every later read of the row). */
function nestRelations(row: Record<string, unknown>, relations: Relation[]): Record<string, unknown> {
  for (const { name, fields, present } of relations) {
    if (present !== null && row[present] !== true) {
      row[name] = null;
      continue;
    }
    const related: Record<string, unknown> = {};
    for (const field of fields) related[field.name] = row[field.key];
    row[name] = related;
  }
  return row;
}
