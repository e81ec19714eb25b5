import { windowFixture } from '../testing/fixtures';
import { formatSpan, levelOf, windowBarOf } from './window-bar';

const NOW = Date.parse('2026-11-29T18:47:30.000Z');

describe('window bars', () => {
  it('reads used / limit as a percentage and a width clamped to the bar', () => {
    const bar = windowBarOf(windowFixture({ nowMs: NOW, used: 800_000, limit: 1_000_000 }), NOW);
    expect(bar).toMatchObject({ label: 'Cost per day', used: '$0.80', limit: '$1.00', ratio: 0.8, width: 80, percent: 80, level: 'warn' });

    const over = windowBarOf(windowFixture({ nowMs: NOW, metric: 'requests', used: 103, limit: 100 }), NOW);
    expect(over).toMatchObject({ label: 'Requests per day', used: '103', limit: '100', width: 100, percent: 103, level: 'full' });
    // 99.6 % is not full: the floor, not a rounding, says so.
    expect(windowBarOf(windowFixture({ nowMs: NOW, metric: 'tokens', used: 996, limit: 1000 }), NOW)).toMatchObject({ percent: 99, level: 'warn' });
  });

  it('colours from 80 % and at 100 %', () => {
    expect([0, 0.79, 0.8, 0.99, 1, 1.5].map(levelOf)).toEqual(['ok', 'ok', 'warn', 'warn', 'full', 'full']);
  });

  it('says when the window resets, and the local time on hover', () => {
    const window = windowFixture({ nowMs: NOW, period: 'week', time_zone: 'Europe/Paris', resetsInMs: 5 * 3_600_000 + 12 * 60_000 + 59_000 });
    const bar = windowBarOf(window, NOW);
    expect(bar.resetsIn).toBe('resets in 5h 12m');
    expect(bar.label).toBe('Cost per week');
    expect(bar.resetsAtLocal).toBe(`${new Date(window.resets_at).toLocaleString()} (counted in Europe/Paris)`);
  });

  it('writes spans with two units at most', () => {
    expect(formatSpan(3 * 86_400_000 + 4 * 3_600_000 + 59 * 60_000)).toBe('3d 4h');
    expect(formatSpan(2 * 86_400_000 + 30 * 60_000)).toBe('2d');
    expect(formatSpan(3_600_000)).toBe('1h');
    expect(formatSpan(12 * 60_000 + 5_000)).toBe('12m');
    expect(formatSpan(59_000)).toBe('under a minute');
    expect(formatSpan(-5_000)).toBe('under a minute');
  });
});
