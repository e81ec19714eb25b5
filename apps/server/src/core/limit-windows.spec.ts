import { calendarWindow, currentWindow, secondsToReset } from './limit-windows';

const at = (iso: string) => Date.parse(iso);
const isoOf = (ms: number) => new Date(ms).toISOString();

describe('calendar windows of the periodic limits', () => {
  it('a UTC day runs from midnight to midnight', () => {
    const window = calendarWindow('day', 'UTC', at('2026-11-29T18:10:00Z'));
    expect(window.start).toBe('2026-11-29');
    expect(isoOf(window.startsAtMs)).toBe('2026-11-29T00:00:00.000Z');
    expect(isoOf(window.resetsAtMs)).toBe('2026-11-30T00:00:00.000Z');
  });

  it('a day in Tokyo starts at 15:00 UTC the day before', () => {
    const window = calendarWindow('day', 'Asia/Tokyo', at('2026-11-29T16:00:00Z'));
    expect(window.start).toBe('2026-11-30');
    expect(isoOf(window.startsAtMs)).toBe('2026-11-29T15:00:00.000Z');
    expect(isoOf(window.resetsAtMs)).toBe('2026-11-30T15:00:00.000Z');
  });

  it('a zone with a half-hour offset (India) and one west of Greenwich (New York)', () => {
    expect(isoOf(calendarWindow('day', 'Asia/Kolkata', at('2026-06-01T00:00:00Z')).startsAtMs)).toBe('2026-05-31T18:30:00.000Z');
    expect(isoOf(calendarWindow('day', 'America/New_York', at('2026-06-01T03:00:00Z')).startsAtMs)).toBe('2026-05-31T04:00:00.000Z');
  });

  it('the day a DST change shortens is 23 hours long, and the next window starts at the new midnight', () => {
    // Europe/Paris moved to summer time on 2026-03-29 at 02:00.
    const window = calendarWindow('day', 'Europe/Paris', at('2026-03-29T12:00:00Z'));
    expect(isoOf(window.startsAtMs)).toBe('2026-03-28T23:00:00.000Z');
    expect(isoOf(window.resetsAtMs)).toBe('2026-03-29T22:00:00.000Z');
    expect((window.resetsAtMs - window.startsAtMs) / 3_600_000).toBe(23);
  });

  it('where midnight itself is skipped (Santiago, September), the day starts at 01:00', () => {
    // Chile moved its clocks from 00:00 to 01:00 on 2026-09-06.
    const window = calendarWindow('day', 'America/Santiago', at('2026-09-06T12:00:00Z'));
    expect(window.start).toBe('2026-09-06');
    expect(isoOf(window.startsAtMs)).toBe('2026-09-06T04:00:00.000Z');
    expect(window.startsAtMs).toBeLessThanOrEqual(at('2026-09-06T12:00:00Z'));
  });

  it('weeks start on Monday, months on the 1st, across the year', () => {
    // 2026-11-29 is a Sunday.
    const week = calendarWindow('week', 'UTC', at('2026-11-29T23:59:59Z'));
    expect(week.start).toBe('2026-11-23');
    expect(isoOf(week.resetsAtMs)).toBe('2026-11-30T00:00:00.000Z');
    expect(calendarWindow('week', 'UTC', at('2026-11-30T00:00:00Z')).start).toBe('2026-11-30');
    const december = calendarWindow('month', 'UTC', at('2026-12-31T23:00:00Z'));
    expect(december.start).toBe('2026-12-01');
    expect(isoOf(december.resetsAtMs)).toBe('2027-01-01T00:00:00.000Z');
    expect(calendarWindow('month', 'UTC', at('2028-02-29T12:00:00Z')).start).toBe('2028-02-01');
  });

  it('the window holding an instant always holds it: every 11 hours of a year in several zones', () => {
    for (const zone of ['UTC', 'Europe/Paris', 'America/Santiago', 'Australia/Lord_Howe', 'Asia/Kathmandu']) {
      for (let ms = at('2026-01-01T00:00:00Z'); ms < at('2027-01-01T00:00:00Z'); ms += 11 * 3_600_000 + 17_000) {
        for (const period of ['day', 'week', 'month'] as const) {
          const window = calendarWindow(period, zone, ms);
          if (!(window.startsAtMs <= ms && ms < window.resetsAtMs)) throw new Error(`${zone} ${period} ${isoOf(ms)}: ${JSON.stringify(window)}`);
        }
      }
    }
  });

  it('the cached current window moves on when the clock leaves it', () => {
    const before = currentWindow('day', 'UTC', at('2026-11-29T23:59:59Z'));
    expect(currentWindow('day', 'UTC', at('2026-11-29T12:00:00Z'))).toBe(before);
    const after = currentWindow('day', 'UTC', at('2026-11-30T00:00:00Z'));
    expect(after.start).toBe('2026-11-30');
    expect(secondsToReset(before, at('2026-11-29T23:59:59.500Z'))).toBe(1);
    expect(secondsToReset(after, at('2026-11-30T00:00:00Z'))).toBe(86_400);
  });
});
