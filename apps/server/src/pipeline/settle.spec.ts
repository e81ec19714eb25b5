import { isoNow } from './settle';

describe('isoNow', () => {
  it('writes what new Date().toISOString() writes, across second boundaries and for each width of milliseconds', () => {
    const start = Date.UTC(2026, 10, 29, 23, 59, 58, 990);
    for (let now = start; now < start + 2_500; now += 1) expect(isoNow(now)).toBe(new Date(now).toISOString());
    for (const now of [0, 5, 42, 999, 1_000, 1_001, Date.UTC(1999, 11, 31, 23, 59, 59, 999), Date.UTC(2000, 0, 1)]) {
      expect(isoNow(now)).toBe(new Date(now).toISOString());
    }
    // Going back in time (a clock set back) is a second of its own too.
    expect(isoNow(start)).toBe(new Date(start).toISOString());
  });

  it('reads the clock when given no time', () => {
    const before = Date.now();
    const written = Date.parse(isoNow());
    expect(written).toBeGreaterThanOrEqual(before);
    expect(written).toBeLessThanOrEqual(Date.now());
  });
});
