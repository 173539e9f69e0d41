import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { statementNames } from './statement-names.ts';
import { inTransaction, SYSTEM_ACTOR } from './unit-of-work.ts';

describe('statement names', () => {
  it('one name per SQL text, the same each time; texts past the bound stay unnamed', () => {
    const nameOf = statementNames(2);
    const first = nameOf({ sql: 'SELECT 1' });
    expect(first).toMatch(/^violet_\d+$/);
    expect(nameOf({ sql: 'SELECT 1' })).toBe(first);
    const second = nameOf({ sql: 'SELECT 2' });
    expect(second).not.toBe(first);
    expect(nameOf({ sql: 'SELECT 3' })).toBeUndefined();
    expect(nameOf({ sql: 'SELECT 2' })).toBe(second);
  });
});

/** The session settings the service connects with (src/db/session-options.ts), as its statements see them. */
const sessionSettings = async (app: ReturnType<typeof useTestApp>) =>
  (
    await app.services.db.rows<{ jit: string; parallel: string; plans: string }>(Prisma.sql`
      SELECT current_setting('jit') AS jit, current_setting('max_parallel_workers_per_gather') AS parallel,
             current_setting('plan_cache_mode') AS plans`)
  )[0];

const prepared = (app: ReturnType<typeof useTestApp>) =>
  app.services.prisma.$transaction(async (tx) => {
    // One session: the transaction keeps its connection for both reads and the look at its prepared statements.
    await tx.technique.findMany({ where: { ttpId: 'T0000' }, select: { id: true } });
    const again = await tx.technique.findMany({ where: { ttpId: 'T0001' }, select: { id: true } });
    const statements = await tx.$queryRaw<{ name: string; statement: string }[]>`
      SELECT name, statement FROM pg_prepared_statements
      WHERE statement LIKE '%"techniques"%' AND statement NOT LIKE '%pg_prepared_statements%'`;
    return { again, statements };
  });

describe('prepared statements on PostgreSQL', () => {
  const app = useTestApp();

  it('a connection prepares a statement it runs once and runs it again by name, with new values', async () => {
    const { again, statements } = await prepared(app);
    expect(again).toEqual([]);
    expect(statements).toHaveLength(1);
    expect(statements[0].name).toMatch(/^violet_\d+$/);
  });

  it('opens its sessions without JIT or parallel workers, planning prepared statements for their values', async () => {
    expect(await sessionSettings(app)).toEqual({ jit: 'off', parallel: '0', plans: 'force_custom_plan' });
  });

  it("a bulk transaction keeps its triggers' plans from row to row, for itself only", async () => {
    const plans = (bulk: boolean) =>
      inTransaction(
        app.services,
        SYSTEM_ACTOR,
        async (uow) => (await uow.tx.$queryRaw<{ plans: string }[]>`SELECT current_setting('plan_cache_mode') AS plans`)[0].plans,
        { bulk },
      );
    expect(await plans(true)).toBe('auto');
    expect(await plans(false)).toBe('force_custom_plan');
    // The setting ends with its transaction: the pool's sessions (a bulk one's included) plan for their values again.
    const after = await Promise.all(Array.from({ length: 4 }, () => sessionSettings(app)));
    expect(after.map((settings) => settings.plans)).toEqual(Array(4).fill('force_custom_plan'));
  });
});

describe('prepared statements switched off (a pooler in transaction mode)', () => {
  const app = useTestApp({ DATABASE_PREPARED_STATEMENTS: 'false' });

  it('sends every statement unnamed', async () => {
    const { statements } = await prepared(app);
    expect(statements).toEqual([]);
    expect(await sessionSettings(app)).toEqual({ jit: 'off', parallel: '0', plans: 'auto' });
  });
});
