import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { technique } from '../../../test/helpers/test-runs.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { VALIDATION_STATUSES, validationIs, validationStatusOf, validationWhere, type ValidationStatus } from './validation-states.ts';

const app = useTestApp();

/** Validations around `at` (ends `step` ms before, at, or after it; or never invalidated), each with its status. */
async function rowsAround(at: Date, step: number, offsets: readonly number[] = [-1, 0, 1]) {
  const tech = await technique(app);
  const moment = (offset: number) => new Date(at.getTime() + offset * step);
  const cases: { validUntil: Date; invalidatedAt: Date | null; expected: ValidationStatus }[] = [];
  for (const until of offsets) {
    for (const invalidated of [null, ...offsets]) {
      const expected: ValidationStatus = invalidated !== null && invalidated <= 0 ? 'invalidated' : until <= 0 ? 'expired' : 'fresh';
      cases.push({ validUntil: moment(until), invalidatedAt: invalidated === null ? null : moment(invalidated), expected });
    }
  }
  const rows = [];
  for (const row of cases) {
    const { id } = await app.services.prisma.detectionValidation.create({
      data: {
        techniqueId: tech.id,
        validatedAt: new Date(at.getTime() - 86_400_000),
        validUntil: row.validUntil,
        invalidatedAt: row.invalidatedAt,
      },
    });
    rows.push({ id, ...row });
  }
  return { techniqueId: tech.id, rows };
}

const sorted = (ids: string[]) => [...ids].sort();

describe('the one definition of a validation status', () => {
  it('gives the same rows as of a moment through its SQL condition, its Prisma filter and its row test, just before and after each boundary', async () => {
    const at = new Date('2031-03-04T05:06:07.008Z');
    const { techniqueId, rows } = await rowsAround(at, 1);
    for (const status of VALIDATION_STATUSES) {
      const expected = sorted(rows.filter((row) => row.expected === status).map((row) => row.id));
      const sql = await app.services.prisma.$queryRaw<{ id: string }[]>`
        SELECT v.id FROM detection_validations v WHERE v.technique_id = ${techniqueId}::uuid
           AND ${validationIs(status, 'v', Prisma.sql`${at}::timestamptz`)}`;
      const prisma = await app.services.prisma.detectionValidation.findMany({
        where: { AND: [{ techniqueId }, validationWhere(status, at, true)] },
        select: { id: true },
      });
      expect(sorted(sql.map((row) => row.id)), `${status} in SQL`).toEqual(expected);
      expect(sorted(prisma.map((row) => row.id)), `${status} in Prisma`).toEqual(expected);
      expect(sorted(rows.filter((row) => validationStatusOf(row, at, true) === status).map((row) => row.id)), `${status} per row`).toEqual(
        expected,
      );
    }
    expect(new Set(rows.map((row) => row.expected))).toEqual(new Set(VALIDATION_STATUSES));
  });

  it('agrees at the present: now() in SQL, the clock in Prisma, a recorded invalidation counting at once', async () => {
    // An hour either side: the database's now() and this process's clock differ by the test's own duration.
    const { techniqueId, rows } = await rowsAround(new Date(), 3_600_000, [-1, 1]);
    for (const status of VALIDATION_STATUSES) {
      const sql = await app.services.prisma.$queryRaw<{ id: string }[]>`
        SELECT id FROM detection_validations WHERE technique_id = ${techniqueId}::uuid AND ${validationIs(status)}`;
      const prisma = await app.services.prisma.detectionValidation.findMany({
        where: { AND: [{ techniqueId }, validationWhere(status, new Date())] },
        select: { id: true },
      });
      const now = (row: (typeof rows)[number]) => (row.invalidatedAt ? 'invalidated' : row.expected);
      const expected = sorted(rows.filter((row) => now(row) === status).map((row) => row.id));
      expect(sorted(sql.map((row) => row.id)), `${status} in SQL`).toEqual(expected);
      expect(sorted(prisma.map((row) => row.id)), `${status} in Prisma`).toEqual(expected);
      expect(sorted(rows.filter((row) => validationStatusOf(row, new Date()) === status).map((row) => row.id))).toEqual(expected);
    }
  });
});
