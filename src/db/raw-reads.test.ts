import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.ts';
import { ValidationError } from '../errors.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { domainErrorFrom } from './errors.ts';

describe('raw reads on the pool (src/db/raw-reads.ts)', () => {
  const app = useTestApp();

  it('give each type of the known ones as $queryRaw gives it, value for value', async () => {
    const statement = Prisma.sql`
      SELECT 9007199254740993::int8 AS big, -3::int2 AS small, 42::int4 AS number, true AS yes, NULL::bool AS unknown,
             'text'::text AS text, 'short'::varchar(10) AS short, '6b1f0f3c-2a3e-4b4e-9a51-3f1d2c4b5a69'::uuid AS id,
             '2026-12-01 04:12:28.138+02'::timestamptz AS at, NULL::timestamptz AS never,
             '{"a": [1, "b", null], "c": {"d": true}}'::jsonb AS document, '[1, 2]'::json AS list,
             ARRAY['a', 'b,c', NULL, '"q"']::text[] AS texts, ARRAY[]::varchar[] AS none,
             'validated'::"CoverageStatus" AS status, ${'dollar $1'} AS parameter`;
    const [viaPool] = await app.services.db.rows(statement);
    const [viaPrisma] = await app.services.prisma.$queryRaw<Record<string, unknown>[]>(statement);
    expect(viaPool).toEqual(viaPrisma);
    expect(viaPool.big).toBe(9007199254740993n);
    expect(viaPool.at).toEqual(new Date('2026-12-01T02:12:28.138Z'));
    expect(Object.keys(viaPool)).toEqual(Object.keys(viaPrisma));
  });

  it('refuse a column of a built-in type they do not map as Prisma does', async () => {
    await expect(app.services.db.rows(Prisma.sql`SELECT 1.5::numeric AS amount`)).rejects.toThrow(
      /column "amount" of type 1700, which it does not map/,
    );
    await expect(app.services.db.rows(Prisma.sql`SELECT now()::timestamp AS local`)).rejects.toThrow(/column "local" of type 1114/);
  });

  it("answer PostgreSQL's refusal of a value as the same 400 as through Prisma", async () => {
    const read = app.services.db.rows(Prisma.sql`SELECT ${'not a uuid'}::uuid AS id`);
    const error = await read.catch((caught: unknown) => caught);
    const refusal = domainErrorFrom(error);
    expect(refusal).toBeInstanceOf(ValidationError);
    expect(refusal?.message).toBe(
      domainErrorFrom(await app.services.prisma.$queryRaw`SELECT ${'not a uuid'}::uuid`.catch((caught: unknown) => caught))?.message,
    );
  });

  it('are prepared once per connection under names of their own, apart from those of Prisma', async () => {
    const statement = Prisma.sql`SELECT count(*)::int AS techniques FROM techniques WHERE ttp_id <> ${'T0000'}`;
    // Every pooled connection runs it once at least: as many reads at once as the pool has connections, twice.
    for (let round = 0; round < 2; round += 1) {
      await Promise.all(Array.from({ length: app.services.config.DATABASE_POOL_SIZE }, () => app.services.db.rows(statement)));
    }
    const names = await app.services.db.rows<{ name: string }>(Prisma.sql`
      SELECT name FROM pg_prepared_statements WHERE statement LIKE '%ttp_id <> $1%'`);
    expect(names.length).toBeGreaterThan(0);
    for (const { name } of names) expect(name).toMatch(/^violet_read_\d+$/);
  });
});
