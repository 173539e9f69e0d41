import { describe, expect, it, vi } from 'vitest';
import type { PrismaClient } from './client.ts';
import { ESTIMATE_ALONE_FROM, ESTIMATE_TTL_MS, EXACT_TOTAL_MAX, pageOf, pageTotal, totalOfPage } from './page-totals.ts';

const exact = (total: number) => ({ total, totalExact: true });

describe('the total of an offset page agrees with its rows', () => {
  it('a short page ends the list: its total is offset plus its rows, whatever the count said', () => {
    // A row committed between the two statements: counted, not listed (and the other way round).
    expect(totalOfPage(exact(1), { offset: 0, limit: 50, found: 0 })).toEqual(exact(0));
    expect(totalOfPage(exact(3), { offset: 0, limit: 50, found: 2 })).toEqual(exact(2));
    expect(totalOfPage(exact(1), { offset: 0, limit: 50, found: 2 })).toEqual(exact(2));
    expect(totalOfPage(exact(140), { offset: 100, limit: 50, found: 41 })).toEqual(exact(141));
  });

  it('a full page means at least offset plus limit rows; a larger count stands', () => {
    expect(totalOfPage(exact(9), { offset: 0, limit: 10, found: 10 })).toEqual(exact(10));
    expect(totalOfPage(exact(25), { offset: 10, limit: 10, found: 10 })).toEqual(exact(25));
  });

  it('an empty page past the start means at most offset rows', () => {
    expect(totalOfPage(exact(101), { offset: 100, limit: 50, found: 0 })).toEqual(exact(100));
    expect(totalOfPage(exact(40), { offset: 100, limit: 50, found: 0 })).toEqual(exact(40));
  });

  it('an estimate stays flagged on a full page and becomes exact on a short one', () => {
    const estimate = { total: 100_000, totalExact: false };
    expect(totalOfPage(estimate, { offset: 0, limit: 50, found: 50 })).toEqual(estimate);
    expect(totalOfPage(estimate, { offset: 0, limit: 50, found: 7 })).toEqual(exact(7));
  });

  it('pageOf answers the rows with the total that agrees with them', async () => {
    const page = await pageOf({ offset: 0, limit: 50 }, [Promise.resolve(['a']), Promise.resolve(2)]);
    expect(page).toEqual({ items: ['a'], total: 1, offset: 0, limit: 50 });
  });
});

describe('the total beyond EXACT_TOTAL_MAX matches', () => {
  const beyond = async () => EXACT_TOTAL_MAX + 1;

  it("without a filter is the table's estimate, read once per ESTIMATE_TTL_MS for each database; with one a lower bound", async () => {
    vi.useFakeTimers();
    try {
      const statistics = (rows: number) => ({ $queryRaw: vi.fn(async () => [{ rows }]) });
      const [first, second] = [statistics(123_456.4), statistics(50_000)];
      const total = (prisma: typeof first, table = 'tests') =>
        pageTotal(prisma as unknown as PrismaClient, beyond, { table, filtered: false });
      expect(await total(first)).toEqual({ total: 123_456, totalExact: false });
      expect(await total(second)).toEqual({ total: 50_000, totalExact: false });
      first.$queryRaw.mockResolvedValue([{ rows: 130_000 }]);
      vi.advanceTimersByTime(ESTIMATE_TTL_MS - 100);
      expect(await total(first)).toEqual({ total: 123_456, totalExact: false });
      expect(first.$queryRaw).toHaveBeenCalledTimes(1);
      expect(await total(first, 'test_templates')).toEqual({ total: 130_000, totalExact: false });
      vi.advanceTimersByTime(200);
      expect(await total(first)).toEqual({ total: 130_000, totalExact: false });
      expect(first.$queryRaw).toHaveBeenCalledTimes(3);
      const filtered = await pageTotal(first as unknown as PrismaClient, beyond, { table: 'tests', filtered: true });
      expect(filtered).toEqual({ total: EXACT_TOTAL_MAX + 1, totalExact: false });
      expect(first.$queryRaw).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is never below what was counted, even when the statistics are older than the rows', async () => {
    const stale = { $queryRaw: vi.fn(async () => [{ rows: 10 }]) };
    expect(await pageTotal(stale as unknown as PrismaClient, beyond, { table: 'tests', filtered: false })).toEqual({
      total: EXACT_TOTAL_MAX + 1,
      totalExact: false,
    });
  });

  it('without a filter, is not counted at all once the statistics hold ESTIMATE_ALONE_FROM rows; below that, counted', async () => {
    const count = vi.fn(async () => EXACT_TOTAL_MAX + 1);
    const large = { $queryRaw: vi.fn(async () => [{ rows: ESTIMATE_ALONE_FROM }]) };
    expect(await pageTotal(large as unknown as PrismaClient, count, { table: 'tests', filtered: false })).toEqual({
      total: ESTIMATE_ALONE_FROM,
      totalExact: false,
    });
    expect(count).not.toHaveBeenCalled();
    // A filter's share is not known: counted whatever the table holds.
    expect(await pageTotal(large as unknown as PrismaClient, count, { table: 'tests', filtered: true })).toEqual({
      total: EXACT_TOTAL_MAX + 1,
      totalExact: false,
    });
    expect(count).toHaveBeenCalledTimes(1);
    const smaller = { $queryRaw: vi.fn(async () => [{ rows: ESTIMATE_ALONE_FROM - 1 }]) };
    const few = vi.fn(async () => 120);
    expect(await pageTotal(smaller as unknown as PrismaClient, few, { table: 'tests', filtered: false })).toEqual(exact(120));
    expect(few).toHaveBeenCalledWith(EXACT_TOTAL_MAX + 1);
  });

  it('reads the statistics again when a count finds more rows than the kept estimate said', async () => {
    const statistics = { $queryRaw: vi.fn(async () => [{ rows: 13 }]) };
    const prisma = statistics as unknown as PrismaClient;
    expect(await pageTotal(prisma, async () => 13, { table: 'tests', filtered: false })).toEqual(exact(13));
    // The table grew and was analysed within ESTIMATE_TTL_MS of the first read.
    statistics.$queryRaw.mockResolvedValue([{ rows: 10_063 }]);
    expect(await pageTotal(prisma, beyond, { table: 'tests', filtered: false })).toEqual({ total: 10_063, totalExact: false });
    expect(statistics.$queryRaw).toHaveBeenCalledTimes(2);
  });
});
