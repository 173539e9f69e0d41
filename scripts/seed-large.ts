/**
 * Creates the large analytics dataset on PostgreSQL: 1,000 techniques, 100,000 tests, 1,000,000 audit entries
 * and everything around them, with set-based SQL (INSERT … SELECT over generate_series).
 *
 *   npm run seed:large [-- --reset] [-- --scale=0.1]
 *
 * DATABASE_URL names the database (default postgresql://postgres@127.0.0.1:5432/violet_bench). It is created
 * and migrated when missing; a database that already holds data is refused unless --reset, which drops and
 * recreates it. --scale multiplies the numbers of tests and audit entries (for a quick trial run).
 * Users sign in with the password BENCH_PASSWORD (default "violet-bench-password").
 */
import pg from 'pg';
import { hashPassword } from '../src/auth/passwords.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { DEFAULT_WEIGHTS, SCORE_CONFIG_ID, weightSum } from '../src/modules/scores/formula.ts';

const DEFAULT_URL = 'postgresql://postgres@127.0.0.1:5432/violet_bench';
const PASSWORD = process.env.BENCH_PASSWORD ?? 'violet-bench-password';

interface Options {
  url: string;
  reset: boolean;
  scale: number;
}

function parseOptions(argv: string[]): Options {
  const scaleArg = argv.find((arg) => arg.startsWith('--scale='));
  const scale = scaleArg ? Number(scaleArg.slice('--scale='.length)) : 1;
  if (!(scale > 0 && scale <= 10)) throw new Error('--scale must be a number in (0, 10]');
  const unknown = argv.filter((arg) => arg !== '--reset' && !arg.startsWith('--scale='));
  if (unknown.length) throw new Error(`unknown argument(s): ${unknown.join(' ')}`);
  return { url: process.env.DATABASE_URL ?? DEFAULT_URL, reset: argv.includes('--reset'), scale };
}

/** The size of the dataset; tests and audit entries follow --scale. */
function sizesFor(scale: number) {
  const tests = Math.round(100_000 * scale);
  return {
    parents: 300,
    techniques: 1_000,
    /** Techniques that have tests (the rest stay not_evaluated, as in a real programme). */
    testedTechniques: 720,
    /** The last of them joined the programme ten days ago: tests under way, none validated yet (in_progress). */
    startedTechniques: 15,
    actors: 150,
    actorUses: 4_000,
    rules: 200,
    templates: 1_000,
    campaigns: 200,
    /** Campaigns 1..scheduledCampaigns hold tests; the others are drafts planned ahead. */
    scheduledCampaigns: 180,
    tests,
    retests: Math.round(tests / 10),
    auditEntries: Math.round(1_000_000 * scale),
    snapshots: 60,
    detectionAssets: 1_500,
    infrastructureChanges: 200,
    ownedAssets: 300,
    alertInstances: 3_000,
  };
}
type Sizes = ReturnType<typeof sizesFor>;

function redact(url: string): string {
  return url.replace(/(postgres(?:ql)?:\/\/[^:/@\s]*:)[^@\s]*@/g, '$1***@');
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Creates the database when missing (dropping it first with --reset) and applies the migrations. */
async function prepareDatabase(options: Options): Promise<void> {
  const target = new URL(options.url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!name) throw new Error('DATABASE_URL must name a database');
  const server = new URL(options.url);
  server.pathname = '/postgres';
  await withClient(server.toString(), async (client) => {
    if (options.reset) await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
  });
  const { applied } = await applyMigrations(options.url);
  if (applied.length) console.log(`migrations applied: ${applied.join(', ')}`);
}

async function assertEmpty(client: pg.Client, url: string): Promise<void> {
  const { rows } = await client.query<{ rows: string }>(
    `SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM techniques) + (SELECT count(*) FROM tests) AS rows`,
  );
  if (Number(rows[0].rows) > 0) {
    throw new Error(`${redact(url)} already holds data: run with --reset to drop and recreate it`);
  }
}

/** Session helpers: deterministic ids (so rows can reference each other by number) and a fixed clock. */
const SESSION_SQL = `
  SET synchronous_commit = off;
  SET work_mem = '256MB';
  SET maintenance_work_mem = '256MB';
  SET max_parallel_workers_per_gather = 0;
  SELECT setseed(0.4242);
  CREATE FUNCTION pg_temp.uid(kind text, n bigint) RETURNS uuid LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
    $$ SELECT overlay(overlay(md5(kind || ':' || n) placing '4' from 13) placing '8' from 17)::uuid $$;
  CREATE FUNCTION pg_temp.pick(options text[], r double precision) RETURNS text LANGUAGE sql IMMUTABLE AS
    $$ SELECT options[1 + floor(r * cardinality(options))::int] $$;
`;

/**
 * Users by number: 1–2 admin, 3–7 red_lead, 8–12 blue_lead, 13–27 red_tech, 28–42 blue_tech, 43–50 viewer.
 * These expressions pick one of a role from a random number in [0, 1).
 */
const user = {
  redLead: (r: string) => `pg_temp.uid('user', 3 + floor(${r} * 5)::int)`,
  blueLead: (r: string) => `pg_temp.uid('user', 8 + floor(${r} * 5)::int)`,
  redTech: (r: string) => `pg_temp.uid('user', 13 + floor(${r} * 15)::int)`,
  blueTech: (r: string) => `pg_temp.uid('user', 28 + floor(${r} * 15)::int)`,
  any: (r: string) => `pg_temp.uid('user', 1 + floor(${r} * 50)::int)`,
};

/** Technique number (1–1000) of the k-th technique by test volume: a fixed permutation (337 is prime to 1000). */
const techniqueOfRank = (k: string) => `(1 + ((${k}) * 337) % 1000)`;

interface Step {
  name: string;
  sql: string;
}

function steps(s: Sizes, now: string, passwordHash: string): Step[] {
  const NOW = `'${now}'::timestamptz`;
  const YEAR_AGO = `(${NOW} - interval '365 days')`;
  const firstTests = s.tests - s.retests;
  const w = DEFAULT_WEIGHTS;
  const weightTotal = weightSum(w);
  return [
    {
      name: 'tactics',
      sql: `
        INSERT INTO tactics (id, stix_id, external_id, short_name, name, description, matrix_order, updated_at)
        SELECT pg_temp.uid('tactic', o), 'x-mitre-tactic--' || pg_temp.uid('tactic-stix', o), ext, short, name,
               'The adversary is trying to ' || lower(name) || '.', o, ${NOW}
        FROM (VALUES (1, 'TA0043', 'reconnaissance', 'Reconnaissance'), (2, 'TA0042', 'resource-development', 'Resource Development'),
                     (3, 'TA0001', 'initial-access', 'Initial Access'), (4, 'TA0002', 'execution', 'Execution'),
                     (5, 'TA0003', 'persistence', 'Persistence'), (6, 'TA0004', 'privilege-escalation', 'Privilege Escalation'),
                     (7, 'TA0005', 'defense-evasion', 'Defense Evasion'), (8, 'TA0006', 'credential-access', 'Credential Access'),
                     (9, 'TA0007', 'discovery', 'Discovery'), (10, 'TA0008', 'lateral-movement', 'Lateral Movement'),
                     (11, 'TA0009', 'collection', 'Collection'), (12, 'TA0011', 'command-and-control', 'Command and Control'),
                     (13, 'TA0010', 'exfiltration', 'Exfiltration'), (14, 'TA0040', 'impact', 'Impact')) AS v(o, ext, short, name)`,
    },
    {
      // 300 techniques T1001–T1300; 700 sub-techniques spread over the first 200 (3 or 4 each), sharing the parent's tactics.
      name: 'techniques',
      sql: `
        WITH shaped AS (
          SELECT n, p, sub,
                 1 + (p * 7) % 14 AS o1,
                 CASE WHEN p % 3 = 0 THEN 1 + (p * 7 + 5) % 14 END AS o2
          FROM (SELECT n,
                       CASE WHEN n <= ${s.parents} THEN n ELSE 1 + (n - ${s.parents} - 1) % 200 END AS p,
                       CASE WHEN n <= ${s.parents} THEN NULL ELSE (n - ${s.parents} - 1) / 200 + 1 END AS sub
                FROM generate_series(1, ${s.techniques}) AS n) AS numbered
        ),
        named AS (
          SELECT shaped.*,
                 'T' || (1000 + p) AS parent_ttp,
                 (ARRAY['Abuse', 'Hijack', 'Modify', 'Exploit', 'Obtain', 'Impair', 'Masquerade', 'Harvest', 'Inject', 'Steal'])[1 + p % 10]
                   || ' ' || (ARRAY['Scheduled Tasks', 'Cloud Accounts', 'Registry Keys', 'Process Memory', 'Web Sessions', 'Boot Records',
                                    'Network Shares', 'Service Tokens', 'Email Rules', 'Container Images', 'Browser Data', 'Domain Trusts'])[1 + (p / 10) % 12]
                   AS parent_name
          FROM shaped
        )
        INSERT INTO techniques (id, ttp_id, name, description, tactic, platforms, status_global, review_required, is_custom,
                                stix_id, tactics, is_subtechnique, parent_ttp_id, attack_version, attack_modified, url, created_at, updated_at)
        SELECT pg_temp.uid('technique', n),
               CASE WHEN sub IS NULL THEN parent_ttp ELSE parent_ttp || '.' || lpad(sub::text, 3, '0') END,
               CASE WHEN sub IS NULL THEN parent_name ELSE parent_name || ': Variant ' || sub END,
               'Adversaries may ' || lower(parent_name) || ' to reach their objective.',
               (SELECT name FROM tactics WHERE matrix_order = LEAST(o1, COALESCE(o2, o1))),
               COALESCE(NULLIF(array_remove(ARRAY[
                 CASE WHEN (p * 13) % 100 < 85 THEN 'Windows' END,
                 CASE WHEN (p * 17) % 100 < 60 THEN 'Linux' END,
                 CASE WHEN (p * 19) % 100 < 55 THEN 'macOS' END,
                 CASE WHEN (p * 23) % 100 < 12 THEN 'Network Devices' END,
                 CASE WHEN (p * 29) % 100 < 10 THEN 'Containers' END,
                 CASE WHEN (p * 31) % 100 < 15 THEN 'IaaS' END,
                 CASE WHEN (p * 37) % 100 < 10 THEN 'SaaS' END,
                 CASE WHEN (p * 41) % 100 < 8 THEN 'Office Suite' END,
                 CASE WHEN (p * 43) % 100 < 8 THEN 'Identity Provider' END], NULL), '{}'), ARRAY['Windows']),
               'not_evaluated', n % 97 = 0, false,
               'attack-pattern--' || pg_temp.uid('technique-stix', n),
               ARRAY(SELECT short_name FROM tactics WHERE matrix_order IN (o1, o2) ORDER BY matrix_order),
               sub IS NOT NULL,
               CASE WHEN sub IS NOT NULL THEN parent_ttp END,
               '1.' || (n % 3), ${NOW} - (n % 700) * interval '1 day',
               'https://attack.mitre.org/techniques/' || parent_ttp || CASE WHEN sub IS NULL THEN '' ELSE '/' || lpad(sub::text, 3, '0') END || '/',
               ${NOW} - interval '400 days', ${NOW} - interval '400 days'
        FROM named`,
    },
    {
      name: 'users',
      sql: `
        INSERT INTO users (id, username, email, password_hash, role, is_active, display_name, preferences, session_version, created_at, updated_at)
        SELECT pg_temp.uid('user', n), role || '_' || lpad(n::text, 2, '0'), role || '_' || lpad(n::text, 2, '0') || '@example.com',
               '${passwordHash}', role::"Role", true, initcap(replace(role, '_', ' ')) || ' ' || n, '{}', 0,
               ${NOW} - interval '400 days', ${NOW} - interval '400 days'
        FROM (SELECT n, CASE WHEN n <= 2 THEN 'admin' WHEN n <= 7 THEN 'red_lead' WHEN n <= 12 THEN 'blue_lead'
                             WHEN n <= 27 THEN 'red_tech' WHEN n <= 42 THEN 'blue_tech' ELSE 'viewer' END AS role
              FROM generate_series(1, 50) AS n) AS numbered`,
    },
    {
      name: 'threat_actors',
      sql: `
        INSERT INTO threat_actors (id, stix_id, external_id, name, aliases, description, motivation, motivations, country, attack_modified, created_at, updated_at)
        SELECT pg_temp.uid('actor', n), 'intrusion-set--' || pg_temp.uid('actor-stix', n), 'G' || lpad(n::text, 4, '0'),
               name, ARRAY[name || ' Team', 'TG-' || (3000 + n)], 'A threat group tracked as ' || name || '.',
               motivation, ARRAY[motivation], country, ${NOW} - (n % 300) * interval '1 day',
               ${NOW} - interval '400 days', ${NOW} - interval '400 days'
        FROM (SELECT n,
                     (ARRAY['Crimson', 'Silent', 'Iron', 'Shadow', 'Golden', 'Velvet', 'Frozen', 'Hidden', 'Rapid', 'Lunar'])[1 + n % 10] || ' '
                       || (ARRAY['Typhoon', 'Bear', 'Kitten', 'Chollima', 'Panda', 'Spider', 'Jackal', 'Falcon', 'Viper', 'Lynx', 'Otter', 'Heron', 'Wolf', 'Mantis', 'Raven'])[1 + (n / 10) % 15]
                       AS name,
                     (ARRAY['organizational-gain', 'personal-gain', 'ideology', 'dominance', 'notoriety'])[1 + n % 5] AS motivation,
                     (ARRAY['CN', 'RU', 'IR', 'KP', 'VN', 'PK', 'IN', 'TR', 'BR', 'NG', NULL])[1 + (n * 7) % 11] AS country
              FROM generate_series(1, ${s.actors}) AS n) AS numbered`,
    },
    {
      // Skewed towards the techniques most tested (rank k small), with a tail reaching untested techniques.
      name: 'threat_actor_techniques',
      sql: `
        INSERT INTO threat_actor_techniques (id, stix_id, actor_id, technique_id, procedure, created_at, scanned_at)
        SELECT gen_random_uuid(), 'relationship--' || gen_random_uuid(), pg_temp.uid('actor', a), pg_temp.uid('technique', t),
               'The group has used this technique in intrusions.', ${NOW} - interval '300 days', ${NOW} - interval '1 day'
        FROM (SELECT DISTINCT a, t
              FROM (SELECT 1 + i % ${s.actors} AS a, ${techniqueOfRank(`floor(${s.techniques} * random() ^ 1.6)::int`)} AS t
                    FROM generate_series(1, ${Math.round(s.actorUses * 1.1)}) AS i) AS candidates
              LIMIT ${s.actorUses}) AS uses`,
    },
    {
      // Rule r detects the technique of rank r; 150 Sigma rules and 50 custom ones.
      name: 'detection_rules',
      sql: `
        INSERT INTO detection_rules (id, title, description, source, ttp_technique_id, technique_ids, severity, status, log_source, content,
                                     external_id, author, "references", license, is_active, created_by, created_at, updated_at)
        SELECT pg_temp.uid('rule', r), 'Detect ' || t.name, 'Detects ' || lower(t.name) || ' activity.',
               CASE WHEN r < 150 THEN 'sigma' ELSE 'custom' END, t.ttp_id,
               CASE WHEN t.parent_ttp_id IS NULL THEN ARRAY[t.ttp_id] ELSE ARRAY[t.ttp_id, t.parent_ttp_id] END,
               (ARRAY['low', 'medium', 'high', 'critical', 'medium'])[1 + r % 5]::"Severity",
               CASE WHEN r < 150 THEN (ARRAY['stable', 'test', 'experimental'])[1 + r % 3] END,
               jsonb_build_object('product', (ARRAY['windows', 'linux', 'macos'])[1 + r % 3], 'category', 'process_creation'),
               'title: Detect ' || t.name || E'\\ndetection:\\n  selection:\\n    Image|endswith: ''.exe''\\n  condition: selection\\n',
               CASE WHEN r < 150 THEN pg_temp.uid('rule-external', r)::text END,
               CASE WHEN r < 150 THEN 'Detection Engineering' END, '{}', CASE WHEN r < 150 THEN 'DRL-1.1' END,
               r % 25 <> 0, ${user.blueLead('(r % 5) / 5.0')},
               ${NOW} - interval '380 days', ${NOW} - interval '380 days'
        FROM generate_series(0, ${s.rules - 1}) AS r
        JOIN techniques t ON t.id = pg_temp.uid('technique', ${techniqueOfRank('r')})`,
    },
    {
      // Template m exercises the technique of rank m; 800 imported atomics and 200 written by hand.
      name: 'test_templates',
      sql: `
        INSERT INTO test_templates (id, name, description, ttp_technique_id, platform, platforms, severity, source, executor, procedure,
                                    cleanup_command, elevation_required, input_arguments, tool_used, suggested_remediation, external_id,
                                    is_active, created_by, created_at, updated_at)
        SELECT pg_temp.uid('template', m), t.ttp_id || ' – ' || t.name, 'Exercises ' || t.name || '.', t.ttp_id,
               t.platforms[1], t.platforms, (ARRAY['low', 'medium', 'high', 'critical', 'medium'])[1 + m % 5]::"Severity",
               CASE WHEN m < 800 THEN 'atomic_red_team' ELSE 'manual' END,
               (ARRAY['powershell', 'command_prompt', 'sh', 'bash', 'manual'])[1 + m % 5],
               'Run the procedure for ' || t.ttp_id || ' and record the outcome.', CASE WHEN m % 2 = 0 THEN 'echo cleanup' END,
               m % 4 = 0, '{}', (ARRAY['Atomic Red Team', 'Caldera', 'Manual'])[1 + m % 3],
               'Alert on ' || lower(t.name) || ' and restrict the permissions it needs.',
               CASE WHEN m < 800 THEN pg_temp.uid('atomic', m)::text END, m % 40 <> 0,
               ${user.redLead('(m % 5) / 5.0')}, ${NOW} - interval '390 days', ${NOW} - interval '390 days'
        FROM generate_series(0, ${s.templates - 1}) AS m
        JOIN techniques t ON t.id = pg_temp.uid('technique', ${techniqueOfRank('m')})`,
    },
    {
      // Campaign c (1–180) starts at its slot of the past year and runs 21 days; 181–200 are drafts planned ahead.
      name: 'campaigns',
      sql: `
        INSERT INTO campaigns (id, name, description, type, status, threat_actor_id, start_date, end_date, recurrence,
                               activated_at, completed_at, created_by, version, created_at, updated_at)
        SELECT pg_temp.uid('campaign', c), initcap(type) || ' campaign ' || lpad(c::text, 3, '0'),
               'Quarterly exercise ' || c || '.', type, status::"CampaignStatus",
               CASE WHEN type = 'threat_actor' THEN pg_temp.uid('actor', 1 + c % ${s.actors}) END,
               start_date, start_date + interval '21 days', CASE WHEN c % 20 = 0 THEN '0 6 * * 1' END,
               CASE WHEN status <> 'draft' THEN start_date END,
               CASE WHEN status = 'completed' THEN start_date + interval '21 days' END,
               CASE WHEN c % 2 = 0 THEN ${user.redLead('(c % 5) / 5.0')} ELSE ${user.blueLead('(c % 5) / 5.0')} END,
               CASE status WHEN 'draft' THEN 0 WHEN 'active' THEN 1 ELSE 2 END,
               start_date - interval '3 days',
               LEAST(${NOW}, CASE WHEN status = 'completed' THEN start_date + interval '21 days' ELSE start_date END)
        FROM (SELECT c, start_date,
                     (ARRAY['purple', 'red', 'blue', 'regression', 'threat_actor'])[1 + c % 5] AS type,
                     CASE WHEN c > ${s.scheduledCampaigns} THEN 'draft'
                          WHEN start_date + interval '21 days' < ${NOW} THEN 'completed' ELSE 'active' END AS status
              FROM (SELECT c, CASE WHEN c <= ${s.scheduledCampaigns}
                                   THEN ${YEAR_AGO} + (c - 1) * interval '365 days' / ${s.scheduledCampaigns}
                                   ELSE ${NOW} + (c - ${s.scheduledCampaigns}) * interval '7 days' END AS start_date
                    FROM generate_series(1, ${s.campaigns}) AS c) AS dated) AS shaped`,
    },
    {
      // The plan of every test: technique rank k (skewed: a few techniques are tested a lot), creation time after the
      // technique joined the programme, campaign by creation time, template. Retests copy their origin's plan.
      name: 'test plan (temporary)',
      sql: `
        CREATE TEMP TABLE seed_tests AS
        WITH drawn AS MATERIALIZED (
          SELECT n, floor(${s.testedTechniques} * random() ^ 2)::int AS k, random() AS r_time, random() AS r_campaign,
                 random() AS r_slot, random() AS r_template
          FROM generate_series(1, ${firstTests}) AS n
        ),
        created AS MATERIALIZED (
          SELECT drawn.*, onboard + r_time * (${NOW} - interval '1 hour' - onboard) AS created_at
          FROM (SELECT drawn.*, CASE WHEN k >= ${s.testedTechniques - s.startedTechniques} THEN ${NOW} - interval '10 days'
                                     ELSE ${YEAR_AGO} + (k::float / ${s.testedTechniques}) * interval '330 days' END AS onboard
                FROM drawn) AS drawn
        )
        SELECT n, pg_temp.uid('test', n) AS id, k, created_at,
               CASE WHEN r_campaign < 0.7 THEN pg_temp.uid('campaign', GREATEST(1, LEAST(${s.scheduledCampaigns},
                 floor(extract(epoch FROM created_at - ${YEAR_AGO}) / extract(epoch FROM interval '365 days') * ${s.scheduledCampaigns})::int + 1
                 - floor(r_slot * 10)::int))) END AS campaign_id,
               CASE WHEN r_template < 0.6 THEN pg_temp.uid('template', k) END AS template_id,
               NULL::uuid AS retest_of, pg_temp.uid('test', n) AS lineage_id, false AS has_retest
        FROM created;

        INSERT INTO seed_tests (n, id, k, created_at, campaign_id, template_id, retest_of, lineage_id, has_retest)
        SELECT ${firstTests} + row_number() OVER (), pg_temp.uid('test', ${firstTests} + row_number() OVER ()), k,
               created_at + (25 + random() * 30) * interval '1 day', campaign_id, template_id, id, lineage_id, false
        FROM (SELECT * FROM seed_tests WHERE created_at < ${NOW} - interval '60 days' ORDER BY random() LIMIT ${s.retests}) AS origins;

        UPDATE seed_tests SET has_retest = true WHERE id IN (SELECT retest_of FROM seed_tests WHERE retest_of IS NOT NULL);`,
    },
    {
      // The lifecycle: state by age (old tests are mostly decided), then a timestamp chain created → execution → red
      // submitted → blue submitted → validations → decided, clamped to the clock so that nothing lies in the future.
      name: 'tests',
      sql: `
        WITH drawn AS MATERIALIZED (
          SELECT p.*, t.platforms, t.ttp_id, t.name AS technique_name,
                 random() AS r_state, random() AS r_exec, random() AS r_red, random() AS r_blue, random() AS r_rv, random() AS r_bv,
                 random() AS r_success, random() AS r_detect, random() AS r_red_decision, random() AS r_blue_decision,
                 random() AS r_remediation, random() AS r_remediation_status, random() AS r_remediation_done, random() AS r_people,
                 random() AS r_platform, random() AS r_tool, random() AS r_elapsed,
                 -- how likely this technique is detected: 25–85 %, better on a retest
                 LEAST(0.95, 0.25 + 0.6 * ((p.k * 7919) % 100) / 100.0 + CASE WHEN p.retest_of IS NULL THEN 0 ELSE 0.15 END) AS detect_rate
          FROM seed_tests p JOIN techniques t ON t.id = pg_temp.uid('technique', ${techniqueOfRank('p.k')})
        ),
        staged AS MATERIALIZED (
          SELECT drawn.*,
                 CASE WHEN has_retest THEN CASE WHEN r_state < 0.75 THEN 'validated' ELSE 'rejected' END
                      WHEN k >= ${s.testedTechniques - s.startedTechniques} THEN
                        CASE WHEN r_state < 0.10 THEN 'rejected' WHEN r_state < 0.30 THEN 'in_review' WHEN r_state < 0.55 THEN 'blue_evaluating'
                             WHEN r_state < 0.80 THEN 'red_executing' ELSE 'draft' END
                      WHEN ${NOW} - created_at > interval '21 days' THEN
                        CASE WHEN r_state < 0.86 THEN 'validated' WHEN r_state < 0.95 THEN 'rejected' WHEN r_state < 0.97 THEN 'in_review'
                             WHEN r_state < 0.98 THEN 'blue_evaluating' WHEN r_state < 0.99 THEN 'red_executing' ELSE 'draft' END
                      ELSE
                        CASE WHEN r_state < 0.15 THEN 'validated' WHEN r_state < 0.20 THEN 'rejected' WHEN r_state < 0.35 THEN 'in_review'
                             WHEN r_state < 0.55 THEN 'blue_evaluating' WHEN r_state < 0.75 THEN 'red_executing' ELSE 'draft' END
                 END AS state
          FROM drawn
        ),
        timed AS MATERIALIZED (
          SELECT staged.*,
                 CASE state WHEN 'draft' THEN 0 WHEN 'red_executing' THEN 1 WHEN 'blue_evaluating' THEN 2 WHEN 'in_review' THEN 3 ELSE 4 END AS stage,
                 LEAST(e0, ${NOW} - interval '5 minutes') AS e, LEAST(rs0, ${NOW} - interval '4 minutes') AS rs,
                 LEAST(bs0, ${NOW} - interval '3 minutes') AS bs, LEAST(rv0, ${NOW} - interval '2 minutes') AS rv,
                 LEAST(bv0, ${NOW} - interval '2 minutes') AS bv,
                 CASE WHEN r_detect < detect_rate THEN 'detected'
                      WHEN r_detect < detect_rate + (1 - detect_rate) / 2 THEN 'partially_detected' ELSE 'not_detected' END AS detection,
                 CASE WHEN state = 'validated' THEN 'approved' WHEN state = 'rejected' AND r_red_decision < 0.5 THEN 'rejected'
                      WHEN state = 'rejected' THEN 'approved' WHEN state = 'in_review' AND r_red_decision < 0.4 THEN 'approved' END AS red_decision
          FROM (SELECT staged.*,
                       created_at + r_exec * interval '2 days' AS e0,
                       created_at + r_exec * interval '2 days' + (1 + r_red * 47) * interval '1 hour' AS rs0,
                       created_at + r_exec * interval '2 days' + (1 + r_red * 47) * interval '1 hour' + (1 + r_blue * 71) * interval '1 hour' AS bs0,
                       created_at + r_exec * interval '2 days' + (1 + r_red * 47) * interval '1 hour' + (1 + r_blue * 71) * interval '1 hour'
                         + (1 + r_rv * 47) * interval '1 hour' AS rv0,
                       created_at + r_exec * interval '2 days' + (1 + r_red * 47) * interval '1 hour' + (1 + r_blue * 71) * interval '1 hour'
                         + (1 + r_bv * 47) * interval '1 hour' AS bv0
                FROM staged) AS staged
        ),
        decided AS MATERIALIZED (
          SELECT timed.*,
                 CASE WHEN state = 'validated' THEN 'approved'
                      WHEN state = 'rejected' AND red_decision = 'approved' THEN 'rejected'
                      WHEN state = 'rejected' THEN CASE WHEN r_blue_decision < 0.5 THEN 'approved' ELSE 'rejected' END END AS blue_decision,
                 stage >= 3 AND detection <> 'detected' AND r_remediation < 0.8 AS remediated,
                 CASE WHEN r_remediation_status < 0.3 THEN 'pending' WHEN r_remediation_status < 0.55 THEN 'in_progress'
                      WHEN r_remediation_status < 0.9 THEN 'completed' ELSE 'not_applicable' END AS remediation
          FROM timed
        ),
        final AS MATERIALIZED (
          SELECT decided.*,
                 CASE WHEN stage = 4 THEN GREATEST(CASE WHEN red_decision IS NOT NULL THEN rv END, CASE WHEN blue_decision IS NOT NULL THEN bv END) END AS decided_at,
                 CASE WHEN remediated AND remediation = 'completed'
                      THEN LEAST(${NOW} - interval '1 minute', bs + (1 + r_remediation_done * 20) * interval '1 day') END AS remediation_completed_at
          FROM decided
        )
        INSERT INTO tests (id, technique_id, name, description, platform, procedure_text, tool_used, attack_success, red_summary,
                           detection_result, blue_summary, state, execution_date, red_submitted_at, blue_submitted_at,
                           red_validation_status, red_validation_notes, red_validated_by, red_validated_at,
                           blue_validation_status, blue_validation_notes, blue_validated_by, blue_validated_at, decided_at,
                           remediation_steps, remediation_status, remediation_assignee, remediation_completed_at, data_classification,
                           created_by, assigned_to, campaign_id, template_id, retest_of, lineage_id, elapsed_ms, timer_started_at,
                           version, created_at, updated_at)
        SELECT id, pg_temp.uid('technique', ${techniqueOfRank('k')}),
               ttp_id || ' – ' || technique_name || CASE WHEN retest_of IS NULL THEN '' ELSE ' (retest)' END,
               'Emulates ' || technique_name || '.',
               platforms[1 + floor(r_platform * cardinality(platforms))::int],
               CASE WHEN stage >= 1 THEN 'Executed the procedure for ' || ttp_id || ' on a lab host.' END,
               (ARRAY['Atomic Red Team', 'Caldera', 'Cobalt Strike', 'Metasploit', 'Impacket', 'Manual'])[1 + floor(r_tool * 6)::int],
               CASE WHEN stage >= 2 THEN r_success < 0.8 END,
               CASE WHEN stage >= 2 THEN 'The procedure ran as planned.' END,
               CASE WHEN stage >= 3 THEN detection::"DetectionResult" END,
               CASE WHEN stage >= 3 THEN 'Reviewed the alerts raised during the window.' END,
               state::"TestState",
               CASE WHEN stage >= 1 THEN e END, CASE WHEN stage >= 2 THEN rs END, CASE WHEN stage >= 3 THEN bs END,
               red_decision::"ValidationStatus", CASE WHEN red_decision = 'rejected' THEN 'Evidence incomplete.' END,
               CASE WHEN red_decision IS NOT NULL THEN ${user.redLead('r_people')} END, CASE WHEN red_decision IS NOT NULL THEN rv END,
               blue_decision::"ValidationStatus", CASE WHEN blue_decision = 'rejected' THEN 'Detection not demonstrated.' END,
               CASE WHEN blue_decision IS NOT NULL THEN ${user.blueLead('r_people')} END, CASE WHEN blue_decision IS NOT NULL THEN bv END,
               decided_at,
               CASE WHEN remediated THEN 'Tune the detection for ' || ttp_id || ' and retest.' END,
               CASE WHEN remediated THEN remediation::"RemediationStatus" END,
               CASE WHEN remediated THEN ${user.blueTech('r_people')} END,
               remediation_completed_at,
               CASE WHEN n % 10 = 0 THEN 'confidential' WHEN n % 3 = 0 THEN 'internal' END,
               CASE WHEN r_people < 0.3 THEN ${user.redLead('r_people / 0.3')} ELSE ${user.redTech('(r_people - 0.3) / 0.7')} END,
               ${user.redTech('r_people')},
               campaign_id, template_id, retest_of, lineage_id,
               CASE WHEN stage >= 2 THEN floor(extract(epoch FROM rs - e) * 1000 * r_elapsed)::bigint ELSE 0 END,
               CASE WHEN stage = 1 THEN e END,
               stage + CASE WHEN stage = 4 THEN 2 ELSE 0 END,
               created_at,
               GREATEST(created_at, CASE WHEN stage >= 1 THEN e END, CASE WHEN stage >= 2 THEN rs END, CASE WHEN stage >= 3 THEN bs END,
                        CASE WHEN red_decision IS NOT NULL THEN rv END, CASE WHEN blue_decision IS NOT NULL THEN bv END, remediation_completed_at)
        FROM final
        ORDER BY created_at;
        DROP TABLE seed_tests;`,
    },
    {
      // One row per step of each test's timeline: created, then every state change at the test's own timestamps.
      name: 'test_events',
      sql: `
        INSERT INTO test_events (id, test_id, kind, from_state, to_state, actor_id, actor_name, details, at)
        SELECT gen_random_uuid(), t.id, e.kind, e.from_state::"TestState", e.to_state::"TestState", e.actor_id, u.username, e.details, e.at
        FROM tests t
        CROSS JOIN LATERAL (VALUES
          ('created', NULL, 'draft', t.created_by, t.created_at,
             jsonb_build_object('retest_of', t.retest_of, 'lineage_id', t.lineage_id)),
          ('state_changed', 'draft', 'red_executing', t.assigned_to, t.execution_date, '{"action": "start-execution"}'::jsonb),
          ('state_changed', 'red_executing', 'blue_evaluating', t.assigned_to, t.red_submitted_at, '{"action": "submit-red"}'::jsonb),
          ('state_changed', 'blue_evaluating', 'in_review', pg_temp.uid('user', 28 + abs(hashtext(t.id::text)) % 15), t.blue_submitted_at,
             '{"action": "submit-blue"}'::jsonb),
          ('state_changed', 'in_review', t.state::text,
             CASE WHEN t.blue_validated_at >= t.red_validated_at OR t.red_validated_at IS NULL THEN t.blue_validated_by ELSE t.red_validated_by END,
             t.decided_at,
             CASE WHEN t.blue_validated_at >= t.red_validated_at OR t.red_validated_at IS NULL
                  THEN '{"action": "validate-blue"}'::jsonb ELSE '{"action": "validate-red"}'::jsonb END)
        ) AS e(kind, from_state, to_state, actor_id, at, details)
        JOIN users u ON u.id = e.actor_id
        WHERE e.at IS NOT NULL
        ORDER BY e.at`,
    },
    {
      // Audit entries of the test timeline (the same actions, actors and times), then a year of other activity up
      // to the total; inserted in time order, as an application appends them.
      name: 'audit_logs',
      sql: `
        INSERT INTO audit_logs (id, user_id, username, action, entity_type, entity_id, details, timestamp)
        SELECT gen_random_uuid(), user_id, username, action, entity_type, entity_id, details, at
        FROM (
          SELECT e.actor_id AS user_id, e.actor_name AS username,
                 CASE WHEN e.kind = 'created' THEN 'create_test'
                      ELSE CASE e.details->>'action' WHEN 'start-execution' THEN 'start_test_execution' WHEN 'submit-red' THEN 'submit_test_red'
                                                     WHEN 'submit-blue' THEN 'submit_test_blue' WHEN 'validate-red' THEN 'validate_test_red'
                                                     ELSE 'validate_test_blue' END END AS action,
                 'test' AS entity_type, e.test_id::text AS entity_id,
                 CASE WHEN e.kind = 'created' THEN '{}'::jsonb ELSE jsonb_build_object('from_state', e.from_state, 'to_state', e.to_state) END AS details,
                 e.at
          FROM test_events e
          UNION ALL
          SELECT u.id, u.username, a.action, a.entity_type,
                 CASE a.entity_type WHEN 'user' THEN u.id::text
                                    WHEN 'technique' THEN pg_temp.uid('technique', 1 + floor(r_entity * ${s.techniques})::int)::text
                                    WHEN 'campaign' THEN pg_temp.uid('campaign', 1 + floor(r_entity * ${s.campaigns})::int)::text
                                    WHEN 'test_template' THEN pg_temp.uid('template', floor(r_entity * ${s.templates})::int)::text
                                    WHEN 'notification' THEN gen_random_uuid()::text END,
                 CASE WHEN a.action = 'login' THEN jsonb_build_object('ip', '10.0.' || (n % 250) || '.' || (n % 199)) ELSE '{}'::jsonb END,
                 ${NOW} - r_time * interval '365 days'
          FROM (SELECT n, ${user.any('random()')} AS user_id, random() AS r_action, random() AS r_entity, random() AS r_time
                FROM generate_series(1, GREATEST(0, ${s.auditEntries} - (SELECT count(*) FROM test_events))) AS n OFFSET 0) AS drawn
          JOIN users u ON u.id = drawn.user_id
          CROSS JOIN LATERAL (SELECT CASE WHEN r_action < 0.45 THEN 'login' WHEN r_action < 0.55 THEN 'logout'
                                          WHEN r_action < 0.70 THEN 'read_notification' WHEN r_action < 0.80 THEN 'update_technique'
                                          WHEN r_action < 0.86 THEN 'review_technique' WHEN r_action < 0.92 THEN 'update_campaign'
                                          WHEN r_action < 0.96 THEN 'update_test_template' ELSE 'update_preferences' END AS action) AS chosen
          CROSS JOIN LATERAL (SELECT chosen.action,
                                     CASE chosen.action WHEN 'update_technique' THEN 'technique' WHEN 'review_technique' THEN 'technique'
                                                        WHEN 'update_campaign' THEN 'campaign' WHEN 'update_test_template' THEN 'test_template'
                                                        WHEN 'read_notification' THEN 'notification' ELSE 'user' END AS entity_type) AS a
        ) AS entries
        ORDER BY at`,
    },
    {
      name: 'campaign_events',
      sql: `
        INSERT INTO campaign_events (id, campaign_id, kind, from_status, to_status, actor_id, actor_name, details, at)
        SELECT gen_random_uuid(), c.id, e.kind, e.from_status::"CampaignStatus", e.to_status::"CampaignStatus", c.created_by, u.username, '{}', e.at
        FROM campaigns c JOIN users u ON u.id = c.created_by
        CROSS JOIN LATERAL (VALUES ('created', NULL, 'draft', c.created_at),
                                   ('state_changed', 'draft', 'active', c.activated_at),
                                   ('state_changed', 'active', 'completed', c.completed_at)) AS e(kind, from_status, to_status, at)
        WHERE e.at IS NOT NULL`,
    },
    {
      // Weekly occurrences of the recurring campaigns, each holding the tests created during its week.
      name: 'campaign_executions',
      sql: `
        INSERT INTO campaign_executions (id, campaign_id, occurrence, started_at, finished_at, tests_created, test_ids)
        SELECT gen_random_uuid(), c.id, o.occurrence, o.occurrence, o.occurrence + interval '2 minutes', cardinality(ids.test_ids), ids.test_ids
        FROM campaigns c
        CROSS JOIN LATERAL generate_series(c.start_date, LEAST(c.end_date, ${NOW}), interval '7 days') AS o(occurrence)
        CROSS JOIN LATERAL (SELECT COALESCE(array_agg(t.id::text ORDER BY t.created_at), '{}') AS test_ids
                            FROM tests t WHERE t.campaign_id = c.id AND t.created_at >= o.occurrence
                              AND t.created_at < o.occurrence + interval '7 days') AS ids
        WHERE c.recurrence IS NOT NULL AND c.status <> 'draft'`,
    },
    {
      // Rule r detects the technique of rank r: every blue-submitted test of those techniques has an evaluation.
      name: 'detection_evaluations',
      sql: `
        INSERT INTO detection_evaluations (id, rule_id, test_id, triggered, notes, rule_title, rule_source, rule_external_id, rule_author,
                                           evaluated_by, evaluated_at)
        SELECT gen_random_uuid(), r.id, t.id, t.detection_result <> 'not_detected', NULL, r.title, r.source, r.external_id, r.author,
               pg_temp.uid('user', 28 + abs(hashtext(t.id::text)) % 15), t.blue_submitted_at
        FROM tests t JOIN techniques tq ON tq.id = t.technique_id JOIN detection_rules r ON r.ttp_technique_id = tq.ttp_id
        WHERE t.blue_submitted_at IS NOT NULL`,
    },
    {
      // Coverage as the application computes it: the latest validated test decides; otherwise in_progress if any
      // test left draft; otherwise not_evaluated.
      name: 'techniques.status_global',
      sql: `
        UPDATE techniques t SET status_global = s.status
        FROM (SELECT t.id, COALESCE(
                (SELECT CASE x.detection_result WHEN 'detected' THEN 'validated' WHEN 'partially_detected' THEN 'partial' ELSE 'not_covered' END
                 FROM tests x WHERE x.technique_id = t.id AND x.state = 'validated' AND x.detection_result IS NOT NULL
                 ORDER BY x.decided_at DESC NULLS LAST, x.created_at DESC, x.id DESC LIMIT 1),
                CASE WHEN EXISTS (SELECT 1 FROM tests x WHERE x.technique_id = t.id AND x.state <> 'draft') THEN 'in_progress' END,
                'not_evaluated')::"CoverageStatus" AS status
              FROM techniques t) AS s
        WHERE s.id = t.id AND t.status_global <> s.status`,
    },
    {
      // Daily snapshots of the last 60 days: each technique's status as the tests stood at that moment.
      name: 'snapshots',
      sql: `
        INSERT INTO snapshots (id, name, kind, summary, coverage_percentage, score, created_by, created_at)
        SELECT pg_temp.uid('snapshot', d), 'Daily snapshot ' || to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'daily', '{}', 0, NULL, NULL, at
        FROM (SELECT d, date_trunc('day', ${NOW}, 'UTC') - d * interval '1 day' + interval '5 minutes' AS at
              FROM generate_series(1, ${s.snapshots}) AS d) AS days`,
    },
    {
      name: 'snapshot inputs (temporary)',
      sql: `
        CREATE TEMP TABLE seed_decisions AS
        SELECT technique_id, decided_at, detection_result,
               CASE detection_result WHEN 'detected' THEN 1 WHEN 'partially_detected' THEN 0.5 ELSE 0 END AS rate
        FROM tests WHERE state = 'validated' AND detection_result IS NOT NULL;
        CREATE INDEX ON seed_decisions (technique_id, decided_at);
        ANALYZE seed_decisions;
        CREATE TEMP TABLE seed_first_runs AS
        SELECT technique_id, min(execution_date) AS first_run FROM tests GROUP BY technique_id;
        CREATE TEMP TABLE seed_ruled AS
        SELECT DISTINCT tag AS ttp_id FROM detection_rules CROSS JOIN LATERAL unnest(technique_ids) AS tag WHERE is_active;`,
    },
    {
      name: 'snapshot_techniques',
      sql: `
        -- Status and score as they stood then: the score's terms (coverage, an active rule, freshness of the
        -- latest validation, detection rate) from the validated tests decided before the snapshot.
        INSERT INTO snapshot_techniques (snapshot_id, technique_id, ttp_id, status, score)
        SELECT snapshot_id, technique_id, ttp_id, status::"CoverageStatus",
               round((100 * (${w.coverage} * CASE status WHEN 'validated' THEN 1 WHEN 'partial' THEN 0.5 WHEN 'in_progress' THEN 0.25 ELSE 0 END
                             + ${w.detection} * detection
                             + ${w.validation_freshness} * CASE WHEN last_validated IS NULL THEN 0
                                 ELSE greatest(0, least(1, (365 - extract(epoch FROM taken - last_validated) / 86400.0) / 275)) END
                             + ${w.detection_rate} * COALESCE(rate, 0)) / ${weightTotal})::numeric, 2)
        FROM (SELECT s.id AS snapshot_id, s.created_at AS taken, t.id AS technique_id, t.ttp_id, d.last_validated, d.rate,
                     (r.ttp_id IS NOT NULL)::int AS detection,
                     CASE d.latest WHEN 'detected' THEN 'validated' WHEN 'partially_detected' THEN 'partial' WHEN 'not_detected' THEN 'not_covered'
                                   ELSE CASE WHEN f.first_run < s.created_at THEN 'in_progress' ELSE 'not_evaluated' END END AS status
              FROM snapshots s CROSS JOIN techniques t
              LEFT JOIN seed_first_runs f ON f.technique_id = t.id
              LEFT JOIN seed_ruled r ON r.ttp_id = t.ttp_id
              CROSS JOIN LATERAL (SELECT (array_agg(x.detection_result ORDER BY x.decided_at DESC))[1]::text AS latest,
                                         max(x.decided_at) AS last_validated, avg(x.rate) AS rate
                                  FROM seed_decisions x WHERE x.technique_id = t.id AND x.decided_at < s.created_at) AS d) AS states;
        DROP TABLE seed_decisions, seed_first_runs, seed_ruled;

        UPDATE snapshots s SET summary = a.summary, coverage_percentage = a.coverage, score = a.score
        FROM (SELECT snapshot_id,
                     jsonb_build_object('total', count(*),
                                        'validated', count(*) FILTER (WHERE status = 'validated'),
                                        'partial', count(*) FILTER (WHERE status = 'partial'),
                                        'in_progress', count(*) FILTER (WHERE status = 'in_progress'),
                                        'not_covered', count(*) FILTER (WHERE status = 'not_covered'),
                                        'not_evaluated', count(*) FILTER (WHERE status = 'not_evaluated')) AS summary,
                     round(100.0 * (count(*) FILTER (WHERE status = 'validated') + 0.5 * count(*) FILTER (WHERE status = 'partial')) / count(*), 1) AS coverage,
                     round(avg(score)::numeric, 2) AS score
              FROM snapshot_techniques GROUP BY snapshot_id) AS a
        WHERE a.snapshot_id = s.id`,
    },
    {
      // Detection assets over the platforms, 1–4 techniques each among the tested ones; a tenth disabled or retired.
      name: 'detection_assets',
      sql: `
        INSERT INTO detection_assets (id, name, kind, platform, status, owner_id, detection_rule_id, created_at, updated_at)
        SELECT pg_temp.uid('detection-asset', n), 'Detection ' || n,
               (ARRAY['siem_rule', 'edr_policy', 'ids_signature', 'log_source', 'other'])[1 + n % 5]::"DetectionAssetKind",
               (ARRAY['windows', 'linux', 'macos', 'network', 'cloud'])[1 + (n / 5) % 5],
               CASE WHEN n % 10 = 0 THEN 'disabled' WHEN n % 25 = 0 THEN 'retired' ELSE 'active' END::"DetectionAssetStatus",
               ${user.blueLead('random()')}, CASE WHEN n % 3 = 0 THEN pg_temp.uid('rule', n % ${s.rules}) END,
               ${YEAR_AGO}, ${YEAR_AGO}
        FROM generate_series(1, ${s.detectionAssets}) AS n;
        INSERT INTO detection_asset_techniques (asset_id, technique_id, linked_at)
        SELECT DISTINCT pg_temp.uid('detection-asset', n), pg_temp.uid('technique', ${techniqueOfRank(`(n * 7 + k * 131) % ${s.testedTechniques}`)}), ${YEAR_AGO}
        FROM generate_series(1, ${s.detectionAssets}) AS n CROSS JOIN generate_series(0, n % 4) AS k`,
    },
    {
      // Validations from the validated detected tests of linked techniques (the latest two per technique and asset),
      // 90 days each: the older ones expired; a twentieth invalidated.
      name: 'detection_validations',
      sql: `
        INSERT INTO detection_validations (id, asset_id, technique_id, test_id, source, result, validated_at, valid_until, invalidated_at, invalidated_reason, created_at)
        SELECT gen_random_uuid(), asset_id, technique_id, test_id, 'test', detection_result::text, decided_at, decided_at + interval '90 days',
               CASE WHEN random() < 0.05 THEN decided_at + interval '20 days' END,
               CASE WHEN random() < 0.05 THEN 'infrastructure change' END, decided_at
        FROM (SELECT l.asset_id, x.technique_id, x.id AS test_id, x.detection_result, x.decided_at,
                     row_number() OVER (PARTITION BY l.asset_id, x.technique_id ORDER BY x.decided_at DESC) AS k
              FROM tests x JOIN detection_asset_techniques l ON l.technique_id = x.technique_id
              WHERE x.state = 'validated' AND x.detection_result IN ('detected', 'partially_detected')) AS ranked
        WHERE k <= 2`,
    },
    {
      name: 'infrastructure_changes',
      sql: `
        INSERT INTO infrastructure_changes (id, title, changed_at, platforms, asset_ids, technique_ids, created_at)
        SELECT pg_temp.uid('infrastructure-change', n), 'Change ' || n, ${NOW} - (n * 1.8) * interval '1 day',
               ARRAY[(ARRAY['windows', 'linux', 'macos', 'network', 'cloud'])[1 + n % 5]],
               CASE WHEN n % 4 = 0 THEN ARRAY[pg_temp.uid('detection-asset', 1 + n * 7 % ${s.detectionAssets})] ELSE '{}' END,
               '{}', ${NOW} - (n * 1.8) * interval '1 day'
        FROM generate_series(1, ${s.infrastructureChanges}) AS n`,
    },
    {
      // A red and a blue owner for most tested techniques; systems and environments.
      name: 'ownership',
      sql: `
        INSERT INTO ownership_assignments (id, technique_id, owner_id, team, responsibility, created_at, updated_at)
        SELECT gen_random_uuid(), pg_temp.uid('technique', ${techniqueOfRank('k')}),
               CASE WHEN side = 'red' THEN ${user.redLead('random()')} ELSE ${user.blueLead('random()')} END,
               CASE WHEN side = 'red' THEN 'Red team' ELSE 'SOC' END, side::"Responsibility", ${YEAR_AGO}, ${YEAR_AGO}
        FROM generate_series(1, ${s.testedTechniques}) AS k CROSS JOIN (VALUES ('red'), ('blue')) AS sides(side)
        WHERE k % 10 <> 0;
        INSERT INTO owned_assets (id, name, kind, platform, criticality, owner_id, created_at, updated_at)
        SELECT gen_random_uuid(), 'System ' || n, (ARRAY['system', 'environment', 'application'])[1 + n % 3],
               (ARRAY['windows', 'linux', 'macos', 'network', 'cloud'])[1 + n % 5],
               (ARRAY['low', 'medium', 'high', 'critical'])[1 + n % 4]::"Severity", ${user.any('random()')}, ${YEAR_AGO}, ${YEAR_AGO}
        FROM generate_series(1, ${s.ownedAssets}) AS n`,
    },
    {
      // Two rules of every type and a year of their alerts, most of them closed.
      name: 'alerts',
      sql: `
        INSERT INTO alert_rules (id, name, rule_type, severity, parameters, enabled, cooldown_minutes, created_at, updated_at)
        SELECT pg_temp.uid('alert-rule', n), type || ' ' || n, type::"AlertRuleType",
               (ARRAY['low', 'medium', 'high', 'critical'])[1 + n % 4]::"Severity", parameters::jsonb, true, 60, ${YEAR_AGO}, ${YEAR_AGO}
        FROM (VALUES (1, 'coverage_below', '{"threshold": 50}'), (2, 'coverage_below', '{"threshold": 30}'),
                     (3, 'coverage_drop', '{"points": 5}'), (4, 'coverage_drop', '{"points": 10}'),
                     (5, 'validation_expired', '{}'), (6, 'validation_expired', '{}'),
                     (7, 'actor_technique_uncovered', '{"min_actors": 5}'), (8, 'actor_technique_uncovered', '{"min_actors": 10}'),
                     (9, 'confidence_below', '{"threshold": 30}'), (10, 'confidence_below', '{"threshold": 60}'),
                     (11, 'rejected_tests', '{"count": 20, "window_days": 7}'), (12, 'rejected_tests', '{"count": 50, "window_days": 30}'))
             AS rules(n, type, parameters);
        INSERT INTO alert_instances (id, rule_id, rule_type, severity, subject, technique_id, title, figures, status, fired_at, closed_at, resolved_at)
        SELECT gen_random_uuid(), r.id, r.rule_type, r.severity, 'seed-' || n, NULL, 'Seeded alert ' || n, '{}',
               'resolved', ${NOW} - (n * 365.0 / ${s.alertInstances}) * interval '1 day',
               ${NOW} - (n * 365.0 / ${s.alertInstances}) * interval '1 day' + interval '1 day',
               ${NOW} - (n * 365.0 / ${s.alertInstances}) * interval '1 day' + interval '1 day'
        FROM generate_series(1, ${s.alertInstances}) AS n
        JOIN alert_rules r ON r.id = pg_temp.uid('alert-rule', 1 + n % 12)`,
    },
    {
      name: 'score_config',
      sql: `INSERT INTO score_config (id, weights, updated_by, updated_at) VALUES (${SCORE_CONFIG_ID}, '${JSON.stringify(w)}', NULL, ${NOW})
            ON CONFLICT (id) DO NOTHING`,
    },
  ];
}

const COUNTED_TABLES = [
  'tactics',
  'techniques',
  'users',
  'threat_actors',
  'threat_actor_techniques',
  'detection_rules',
  'test_templates',
  'campaigns',
  'campaign_events',
  'campaign_executions',
  'tests',
  'test_events',
  'detection_evaluations',
  'audit_logs',
  'snapshots',
  'snapshot_techniques',
  'score_config',
  'detection_assets',
  'detection_asset_techniques',
  'detection_validations',
  'infrastructure_changes',
  'ownership_assignments',
  'owned_assets',
  'alert_rules',
  'alert_instances',
];

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const sizes = sizesFor(options.scale);
  const started = performance.now();
  console.log(`seeding ${redact(options.url)}${options.scale === 1 ? '' : ` at scale ${options.scale}`}`);
  await prepareDatabase(options);
  const passwordHash = await hashPassword(PASSWORD);
  const now = new Date().toISOString();

  await withClient(options.url, async (client) => {
    await assertEmpty(client, options.url);
    await client.query(SESSION_SQL);
    for (const step of steps(sizes, now, passwordHash)) {
      const stepStarted = performance.now();
      const results = await client.query(step.sql);
      // Rows written by INSERT and CREATE TABLE … AS (reported as SELECT); updates are not counted.
      const affected = [results]
        .flat()
        .reduce((sum, result) => sum + (['INSERT', 'SELECT'].includes(result.command) ? (result.rowCount ?? 0) : 0), 0);
      console.log(
        `  ${step.name.padEnd(28)} ${String(affected || '').padStart(9)} rows  ${((performance.now() - stepStarted) / 1000).toFixed(1).padStart(6)} s`,
      );
    }
    const vacuumStarted = performance.now();
    await client.query('VACUUM (ANALYZE)');
    console.log(
      `  ${'VACUUM (ANALYZE)'.padEnd(28)} ${''.padStart(9)}       ${((performance.now() - vacuumStarted) / 1000).toFixed(1).padStart(6)} s`,
    );

    const counts = await client.query<{ table: string; rows: string }>(
      COUNTED_TABLES.map((table) => `SELECT '${table}' AS table, count(*) AS rows FROM ${table}`).join(' UNION ALL '),
    );
    console.log('\nrows per table:');
    for (const row of counts.rows) console.log(`  ${row.table.padEnd(26)} ${Number(row.rows).toLocaleString('en-US').padStart(11)}`);
    const states = await client.query<{ state: string; rows: string }>(
      'SELECT state::text, count(*) AS rows FROM tests GROUP BY 1 ORDER BY 1',
    );
    console.log(`tests by state: ${states.rows.map((row) => `${row.state} ${row.rows}`).join(', ')}`);
    const coverage = await client.query<{ status: string; rows: string }>(
      'SELECT status_global::text AS status, count(*) AS rows FROM techniques GROUP BY 1 ORDER BY 1',
    );
    console.log(`techniques by status: ${coverage.rows.map((row) => `${row.status} ${row.rows}`).join(', ')}`);
  });
  console.log(
    `\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s; users sign in as admin_01 … viewer_50 with the password "${PASSWORD}"`,
  );
}

// Exit explicitly: the WebAssembly schema engine leaves a timer behind that would hold the process open.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
