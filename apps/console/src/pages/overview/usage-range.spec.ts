import { bucketStarts, rangeById, windowOf } from './usage-range';

const now = new Date('2026-11-10T15:42:10.000Z');

describe('usage ranges', () => {
  it('covers the last 24 hours in hours, the current hour included', () => {
    const window = windowOf(rangeById('24h'), now);

    expect(window).toEqual({ from: new Date('2026-11-09T16:00:00.000Z'), to: now, bucket: 'hour' });
    const starts = bucketStarts(window);
    expect(starts).toHaveLength(24);
    expect(starts.at(-1)).toBe('2026-11-10T15:00:00.000Z');
  });

  it('covers 7 days in hours and 30 days in UTC days', () => {
    expect(bucketStarts(windowOf(rangeById('7d'), now))).toHaveLength(168);
    const month = windowOf(rangeById('30d'), now);
    expect(month.bucket).toBe('day');
    expect(month.from.toISOString()).toBe('2026-10-12T00:00:00.000Z');
    expect(bucketStarts(month)).toHaveLength(30);
  });

  it('falls back to the first range for an id it does not know', () => {
    expect(rangeById('1y').id).toBe('24h');
  });
});
