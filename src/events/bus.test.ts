import { describe, expect, it } from 'vitest';
import { payloadMatches } from './bus.ts';

describe('payloadMatches', () => {
  const event = (testId: string, campaignId: string | null) => ({ payload: { testId, campaignId } });

  it('passes every event without arguments, and only the matching ones with any argument given', () => {
    expect(payloadMatches({ testId: null, campaignId: undefined })(event('t1', null))).toBe(true);
    expect(payloadMatches({ testId: 't1' })(event('t1', 'c1'))).toBe(true);
    expect(payloadMatches({ testId: 't2' })(event('t1', 'c1'))).toBe(false);
    expect(payloadMatches({ campaignId: 'c1' })(event('t1', null))).toBe(false);
    expect(payloadMatches({ testId: 't1', campaignId: 'c1' })(event('t1', 'c2'))).toBe(false);
    expect(payloadMatches({ testId: 't1', campaignId: 'c1' })(event('t1', 'c1'))).toBe(true);
  });
});
