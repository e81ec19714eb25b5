import { currentWindow } from '../core/limit-windows';
import { alertMarkKey, crossingsOf, type AlertOwner, type MeasuredLimit } from './threshold-crossings';

const TOKEN: AlertOwner = { owner: 'token', id: 7, accountId: 3, tokenId: 7, name: 'ci' };
const NOON = Date.parse('2026-03-10T12:00:00Z');

const daily = (used: number, limit: number, atMs = NOON, timeZone = 'Europe/Paris'): MeasuredLimit => {
  const window = currentWindow('day', timeZone, atMs);
  return { window: { period: 'day', metric: 'cost', timeZone, start: window.start, startsAtMs: window.startsAtMs, resetsAtMs: window.resetsAtMs }, used, limit };
};

describe('threshold crossings', () => {
  it('reaches a threshold at exactly its share, in integers, and each threshold reached once', () => {
    expect(crossingsOf(TOKEN, [daily(799_999, 1_000_000)], [80, 100])).toEqual([]);
    const crossings = crossingsOf(TOKEN, [daily(1_000_000, 1_000_000)], [80, 100]);
    expect(crossings.map((crossing) => crossing.data.threshold)).toEqual([80, 100]);
    expect(crossings[0]?.data).toMatchObject({
      owner: 'token',
      token_id: 7,
      account_id: 3,
      used: 1_000_000,
      limit: 1_000_000,
      ratio: 1,
      window: { period: 'day', metric: 'cost', time_zone: 'Europe/Paris', starts_at: '2026-03-09T23:00:00.000Z', resets_at: '2026-03-10T23:00:00.000Z' },
    });
    expect(crossings[0]?.mark.expiresAt).toBe('2026-03-10T23:00:00.000Z');
  });

  it('keys a window by its first day: the same day gives the same key, the next day a new one', () => {
    const today = alertMarkKey(TOKEN, daily(90, 100), 80);
    expect(today).toBe('token:7:day:2026-03-10:cost:80');
    expect(alertMarkKey(TOKEN, daily(95, 100, NOON + 3_600_000), 80)).toBe(today);
    expect(alertMarkKey(TOKEN, daily(95, 100, NOON + 86_400_000), 80)).toBe('token:7:day:2026-03-11:cost:80');
    expect(alertMarkKey({ owner: 'account', id: 7 }, daily(90, 100), 80)).not.toBe(today);
  });

  it('keys the lifetime quota by its limit (a raised limit alerts again), and never expires its mark', () => {
    const [crossing] = crossingsOf(TOKEN, [{ window: 'lifetime', used: 85, limit: 100 }], [80]);
    expect(crossing?.mark).toEqual({ key: 'token:7:lifetime:cost:100:80', expiresAt: null });
    expect(crossing?.data).toMatchObject({ window: 'lifetime', ratio: 0.85, threshold: 80 });
    expect(alertMarkKey(TOKEN, { window: 'lifetime', used: 170, limit: 200 }, 80)).toBe('token:7:lifetime:cost:200:80');
  });

  it('alerts nothing for a limit of zero', () => {
    expect(crossingsOf(TOKEN, [{ window: 'lifetime', used: 0, limit: 0 }], [80, 100])).toEqual([]);
  });
});
