import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.ts';
import type { DetectionResult, TestState, ValidationStatus } from '../generated/prisma/enums.ts';

const app = useTestApp();

interface Figures {
  testsTotal: number;
  testsValidated: number;
  testsRejected: number;
  validatedDetected: number;
  validatedPartial: number;
  lastValidatedAt: Date | null;
  lastResult: DetectionResult | null;
  lastResultAt: Date | null;
  redApproved: number;
  redRejected: number;
  blueApproved: number;
  blueRejected: number;
}

const NONE: Figures = {
  testsTotal: 0,
  testsValidated: 0,
  testsRejected: 0,
  validatedDetected: 0,
  validatedPartial: 0,
  lastValidatedAt: null,
  lastResult: null,
  lastResultAt: null,
  redApproved: 0,
  redRejected: 0,
  blueApproved: 0,
  blueRejected: 0,
};

/** What the figures of each technique must be: computed here from every test, the way a report would count them. */
async function expectedFigures(techniqueIds: string[]): Promise<Record<string, Figures>> {
  const tests = await app.services.prisma.test.findMany({
    where: { techniqueId: { in: techniqueIds } },
    select: {
      id: true,
      techniqueId: true,
      state: true,
      detectionResult: true,
      decidedAt: true,
      createdAt: true,
      redValidationStatus: true,
      blueValidationStatus: true,
    },
  });
  return Object.fromEntries(
    techniqueIds.map((techniqueId) => {
      const own = tests.filter((test) => test.techniqueId === techniqueId);
      const validated = own.filter((test) => test.state === 'validated');
      const latest = validated
        .filter((test) => test.decidedAt && test.detectionResult)
        .sort(
          (a, b) =>
            b.decidedAt!.getTime() - a.decidedAt!.getTime() || b.createdAt.getTime() - a.createdAt.getTime() || (b.id > a.id ? 1 : -1),
        )[0];
      const decided = validated.map((test) => test.decidedAt?.getTime()).filter((time): time is number => time !== undefined);
      const leads = (side: 'redValidationStatus' | 'blueValidationStatus', status: ValidationStatus) =>
        own.filter((test) => test[side] === status).length;
      return [
        techniqueId,
        {
          testsTotal: own.length,
          testsValidated: validated.length,
          testsRejected: own.filter((test) => test.state === 'rejected').length,
          validatedDetected: validated.filter((test) => test.detectionResult === 'detected').length,
          validatedPartial: validated.filter((test) => test.detectionResult === 'partially_detected').length,
          lastValidatedAt: decided.length ? new Date(Math.max(...decided)) : null,
          lastResult: latest?.detectionResult ?? null,
          lastResultAt: latest?.decidedAt ?? null,
          redApproved: leads('redValidationStatus', 'approved'),
          redRejected: leads('redValidationStatus', 'rejected'),
          blueApproved: leads('blueValidationStatus', 'approved'),
          blueRejected: leads('blueValidationStatus', 'rejected'),
        },
      ];
    }),
  );
}

/** The figures the database keeps; a technique without a row has none. */
async function keptFigures(techniqueIds: string[]): Promise<Record<string, Figures>> {
  const rows = await app.services.prisma.techniqueTestStats.findMany({ where: { techniqueId: { in: techniqueIds } } });
  return Object.fromEntries(
    techniqueIds.map((techniqueId) => {
      const row = rows.find((candidate) => candidate.techniqueId === techniqueId);
      if (!row) return [techniqueId, NONE];
      const { techniqueId: _, ...figures } = row;
      return [techniqueId, figures];
    }),
  );
}

async function expectKeptFigures(techniqueIds: string[]) {
  expect(await keptFigures(techniqueIds)).toEqual(await expectedFigures(techniqueIds));
}

async function techniques(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await app.services.prisma.technique.createMany({
    data: ids.map((id, index) => ({ id, ttpId: `T8${String(index).padStart(3, '0')}.${id.slice(0, 3)}`, name: `Technique ${index}` })),
  });
  return ids;
}

const at = (day: number) => new Date(Date.UTC(2026, 9, day, 12));

function testRow(
  techniqueId: string,
  createdById: string,
  state: TestState,
  detectionResult: DetectionResult | null = null,
  decidedAt: Date | null = null,
) {
  const id = randomUUID();
  return { id, lineageId: id, techniqueId, name: `Test ${id.slice(0, 8)}`, createdById, state, detectionResult, decidedAt };
}

describe("a technique's test figures kept by the database", () => {
  it("follow every insert, change of state, result, decision, lead's decision, creation time or technique, deletion and truncation of its tests", async () => {
    const db = app.services.prisma;
    const author = await app.createUser({ role: 'red_lead' });
    const [first, second, untouched] = await techniques(3);
    const ids = [first, second, untouched];
    const rows = [
      testRow(first, author.id, 'draft'),
      testRow(first, author.id, 'validated', 'detected', at(1)),
      testRow(first, author.id, 'validated', 'partially_detected', at(3)),
      testRow(first, author.id, 'validated', null, at(5)),
      testRow(first, author.id, 'rejected', 'not_detected', at(2)),
      testRow(second, author.id, 'in_review', 'detected'),
      testRow(second, author.id, 'validated', 'not_detected', at(4)),
    ];
    await db.test.createMany({ data: rows });
    await expectKeptFigures(ids);
    expect((await keptFigures([first]))[first]).toMatchObject({ testsTotal: 5, testsValidated: 3, lastResult: 'partially_detected' });
    expect((await keptFigures([untouched]))[untouched]).toEqual(NONE);

    // A rename changes no figure; a decision, a new result and a move to another technique do.
    await db.test.update({ where: { id: rows[0].id }, data: { name: 'Renamed' } });
    await expectKeptFigures(ids);
    await db.test.update({ where: { id: rows[5].id }, data: { state: 'validated', decidedAt: at(9) } });
    await expectKeptFigures(ids);
    expect((await keptFigures([second]))[second]).toMatchObject({ lastResult: 'detected', lastResultAt: at(9) });
    await db.test.update({ where: { id: rows[2].id }, data: { detectionResult: 'detected' } });
    await db.test.update({ where: { id: rows[1].id }, data: { techniqueId: second } });
    await expectKeptFigures(ids);

    // A lead's decision on either side counts, whether or not the test's state moves with it.
    await db.test.update({ where: { id: rows[5].id }, data: { redValidationStatus: 'approved' } });
    await db.test.update({ where: { id: rows[6].id }, data: { redValidationStatus: 'rejected', blueValidationStatus: 'approved' } });
    await db.test.update({ where: { id: rows[4].id }, data: { blueValidationStatus: 'rejected' } });
    await expectKeptFigures(ids);
    expect((await keptFigures([second]))[second]).toMatchObject({ redApproved: 1, redRejected: 1, blueApproved: 1, blueRejected: 0 });
    await db.test.update({ where: { id: rows[6].id }, data: { redValidationStatus: null } });
    await expectKeptFigures(ids);

    // Two results decided at the same moment: the one created later stands, so a change of creation time counts.
    const [early, late] = [
      testRow(second, author.id, 'validated', 'detected', at(20)),
      testRow(second, author.id, 'validated', 'not_detected', at(20)),
    ];
    await db.test.createMany({ data: [early, late].map((row, index) => ({ ...row, createdAt: at(index + 1) })) });
    expect((await keptFigures([second]))[second]).toMatchObject({ lastResult: 'not_detected' });
    await db.test.update({ where: { id: early.id }, data: { createdAt: at(3) } });
    await expectKeptFigures(ids);
    expect((await keptFigures([second]))[second]).toMatchObject({ lastResult: 'detected' });

    // Several tests in one statement, then deletions down to none.
    await db.test.updateMany({ where: { techniqueId: first }, data: { state: 'rejected' } });
    await expectKeptFigures(ids);
    await db.test.deleteMany({ where: { id: { in: [rows[5].id, rows[6].id] } } });
    await expectKeptFigures(ids);
    await db.test.deleteMany({ where: { techniqueId: { in: ids } } });
    await expectKeptFigures(ids);
    expect((await keptFigures([first]))[first]).toEqual(NONE);

    // A technique (tests keep theirs from being deleted) takes its figures with it.
    await db.test.create({ data: testRow(untouched, author.id, 'validated', 'detected', at(7)) });
    await expectKeptFigures(ids);
    await db.test.deleteMany({ where: { techniqueId: untouched } });
    await db.technique.delete({ where: { id: untouched } });
    expect(await db.techniqueTestStats.count({ where: { techniqueId: untouched } })).toBe(0);

    // Emptying the table empties the figures.
    await db.test.create({ data: testRow(first, author.id, 'validated', 'detected', at(8)) });
    expect(await db.techniqueTestStats.count({ where: { testsTotal: { gt: 0 } } })).toBeGreaterThan(0);
    await db.$executeRaw`TRUNCATE tests CASCADE`;
    expect(await db.techniqueTestStats.count()).toBe(0);
  });

  it('stay right when two transactions change tests of the same technique at once', async () => {
    const db = app.services.prisma;
    const author = await app.createUser({ role: 'red_lead' });
    const [technique] = await techniques(1);
    const [held, other] = [
      testRow(technique, author.id, 'in_review', 'detected'),
      testRow(technique, author.id, 'in_review', 'partially_detected'),
    ];
    await db.test.createMany({ data: [held, other] });

    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let changed!: () => void;
    const firstChanged = new Promise<void>((resolve) => {
      changed = resolve;
    });
    const first = db.$transaction(async (tx) => {
      await tx.test.update({ where: { id: held.id }, data: { state: 'validated', decidedAt: at(10) } });
      changed();
      await released;
    });
    await firstChanged;
    // The second writer counts only once the first has committed: it waits on the technique's figures until then.
    const second = db.$transaction((tx) => tx.test.update({ where: { id: other.id }, data: { state: 'validated', decidedAt: at(11) } }));
    await waitForALockWait(db);
    release();
    await Promise.all([first, second]);

    await expectKeptFigures([technique]);
    expect((await keptFigures([technique]))[technique]).toMatchObject({ testsValidated: 2, validatedDetected: 1, validatedPartial: 1 });
  });
});

describe("a technique's test figures under concurrent writers", () => {
  it('count every one of many tests of one technique decided at the same time', async () => {
    const db = app.services.prisma;
    const author = await app.createUser({ role: 'red_lead' });
    const [technique] = await techniques(1);
    const rows = Array.from({ length: 40 }, () => testRow(technique, author.id, 'in_review', 'detected'));
    await db.test.createMany({ data: rows });
    for (let round = 0; round < 3; round += 1) {
      const state = round % 2 === 0 ? 'validated' : 'rejected';
      await Promise.all(rows.map((row, index) => db.test.update({ where: { id: row.id }, data: { state, decidedAt: at(index % 28) } })));
      await expectKeptFigures([technique]);
    }
  });
});

/** Resolves once a session of this database waits for a lock (the second writer), or after 5 s. */
async function waitForALockWait(db: typeof app.services.prisma) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const [{ waiting }] = await db.$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the second writer never waited for the first');
}
