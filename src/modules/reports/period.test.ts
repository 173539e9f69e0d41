import { describe, expect, it } from 'vitest';
import { calendarQuarter, monthsOf } from './period.ts';

const at = (text: string) => new Date(text);

describe('monthsOf', () => {
  it('gives a quarter its three whole months', () => {
    const quarter = calendarQuarter(2024, 4, at('2025-01-15T00:00:00Z'));
    expect(monthsOf(quarter)).toEqual([
      { month: '2024-10', from: at('2024-10-01T00:00:00Z'), to: at('2024-11-01T00:00:00Z') },
      { month: '2024-11', from: at('2024-11-01T00:00:00Z'), to: at('2024-12-01T00:00:00Z') },
      { month: '2024-12', from: at('2024-12-01T00:00:00Z'), to: at('2025-01-01T00:00:00Z') },
    ]);
  });

  it('cuts the first and last months to a period that starts and ends within them, across a year', () => {
    const period = { from: at('2024-12-20T08:30:00Z'), to: at('2025-02-03T00:00:00Z') };
    expect(monthsOf(period)).toEqual([
      { month: '2024-12', from: period.from, to: at('2025-01-01T00:00:00Z') },
      { month: '2025-01', from: at('2025-01-01T00:00:00Z'), to: at('2025-02-01T00:00:00Z') },
      { month: '2025-02', from: at('2025-02-01T00:00:00Z'), to: period.to },
    ]);
  });

  it('gives a period within one month that month alone, and an empty period none', () => {
    const period = { from: at('2025-03-10T00:00:00Z'), to: at('2025-03-11T00:00:00Z') };
    expect(monthsOf(period)).toEqual([{ month: '2025-03', ...period }]);
    expect(monthsOf({ from: period.to, to: period.to })).toEqual([]);
  });
});
