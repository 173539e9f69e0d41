/**
 * Settings of every PostgreSQL session, sent with the connection (no extra round trip). JIT compilation is off:
 * the application's statements finish in milliseconds, and when the planner overestimates one (a whole-catalog
 * aggregate joined to a freshly rewritten table, say) compiling it costs 50–150 ms more than running it. Parallel
 * query is off for the same reason: starting a statement's workers cost more than they saved on the analytics over
 * 100,000 tests (the quarterly activity 70 ms in parallel, 41 alone; `bench:analytics` 5 rows over budget with them,
 * none without, docs/benchmark.md), and under concurrent requests they take the cores the other sessions need.
 * (PGlite has neither.)
 */
export const SESSION_OPTIONS = '-c jit=off -c max_parallel_workers_per_gather=0';

/**
 * A prepared statement is planned for its values every time, as an unprepared one is: what it saves is parsing and
 * analysing the text. After five runs PostgreSQL would otherwise try one generic plan for all values, which made the
 * heaviest analytics (a year of trends, a date range over 100,000 tests) slower in measurement. The setting also
 * reaches the statements that triggers run for each row written (foreign-key checks, the read models' refreshes), which
 * it plans again row by row: a transaction that writes many rows sets it back for itself (TransactionOptions.bulk).
 */
export const PREPARED_SESSION_OPTIONS = '-c plan_cache_mode=force_custom_plan';
