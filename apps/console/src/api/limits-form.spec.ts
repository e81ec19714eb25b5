import { changedLimits, EMPTY_LIMITS_FORM, limitsFormOf, nextLimitRow, parseLimitRows, parseLimitsForm, parseThresholds, parseTimeZone } from './limits-form';

describe('periodic limits form', () => {
  it('sends a cost typed in dollars as micro-USD, counts as whole numbers', () => {
    expect(
      parseLimitRows([
        { period: 'day', metric: 'cost', limit: ' 20 ' },
        { period: 'month', metric: 'cost', limit: '0.000001' },
        { period: 'day', metric: 'requests', limit: '100' },
        { period: 'week', metric: 'tokens', limit: '2000000' },
      ]),
    ).toEqual({
      ok: true,
      value: [
        { period: 'day', metric: 'cost', limit: 20_000_000 },
        { period: 'month', metric: 'cost', limit: 1 },
        { period: 'day', metric: 'requests', limit: 100 },
        { period: 'week', metric: 'tokens', limit: 2_000_000 },
      ],
    });
  });

  it('reads the limits back in dollars, and `none` for no alerts', () => {
    const form = limitsFormOf({
      periodic_limits: [
        { period: 'day', metric: 'cost', limit: 1_250_000 },
        { period: 'day', metric: 'requests', limit: 100 },
      ],
      time_zone: 'Europe/Paris',
      alert_thresholds: [],
    });
    expect(form).toEqual({
      rows: [
        { period: 'day', metric: 'cost', limit: '1.25' },
        { period: 'day', metric: 'requests', limit: '100' },
      ],
      timeZone: 'Europe/Paris',
      thresholds: 'none',
    });
    expect(limitsFormOf({ periodic_limits: [], time_zone: null, alert_thresholds: [50, 80] })).toMatchObject({ timeZone: '', thresholds: '50, 80' });
    // Back again: what was read is what is sent.
    expect(parseLimitsForm(form)).toEqual({
      ok: true,
      value: {
        periodic_limits: [
          { period: 'day', metric: 'cost', limit: 1_250_000 },
          { period: 'day', metric: 'requests', limit: 100 },
        ],
        time_zone: 'Europe/Paris',
        alert_thresholds: [],
      },
    });
  });

  it('names the row and what is wrong with it', () => {
    const reason = (limit: string, metric: 'cost' | 'requests' = 'cost') => {
      const parsed = parseLimitRows([{ period: 'day', metric: 'requests', limit: '5' }, { period: 'week', metric, limit }]);
      return parsed.ok ? null : parsed.problem.reason;
    };
    expect(reason('')).toBe('row 2 (cost per week): enter a limit or remove the row');
    expect(reason('0')).toBe('row 2 (cost per week): the amount must be above $0');
    expect(reason('$5')).toMatch(/^row 2 \(cost per week\): "\$5" is not an amount in dollars/);
    expect(reason('1.0000001')).toMatch(/is not an amount in dollars/);
    expect(reason('2.5', 'requests')).toBe('row 2 (requests per week): "2.5" is not a whole number above 0');
    expect(reason('0', 'requests')).toMatch(/not a whole number above 0/);
    expect(reason('99999999999999999999', 'requests')).toMatch(/too large/);
    expect(parseLimitRows([{ period: 'day', metric: 'cost', limit: '1' }, { period: 'day', metric: 'cost', limit: '2' }])).toEqual({
      ok: false,
      problem: { field: 'periodicLimits', reason: 'row 2: a second day limit on cost' },
    });
  });

  it('parses thresholds: percentages sorted without repeats; empty is the default, none is no alerts', () => {
    expect(parseThresholds('80, 50 100%;80')).toEqual({ ok: true, value: [50, 80, 100] });
    expect(parseThresholds('  ')).toEqual({ ok: true, value: null });
    expect(parseThresholds('None')).toEqual({ ok: true, value: [] });
    expect(parseThresholds('50, 120')).toEqual({ ok: false, problem: { field: 'alertThresholds', reason: '"120" is not a percentage from 1 to 100' } });
    expect(parseThresholds('0')).toMatchObject({ ok: false });
    expect(parseThresholds('eighty')).toMatchObject({ ok: false });
    expect(parseThresholds('1 2 3 4 5 6 7 8 9 10 11')).toEqual({ ok: false, problem: { field: 'alertThresholds', reason: 'at most 10 thresholds' } });
  });

  it('checks the time zone as the relay does; empty is the relay default', () => {
    expect(parseTimeZone(' America/New_York ')).toEqual({ ok: true, value: 'America/New_York' });
    expect(parseTimeZone('')).toEqual({ ok: true, value: null });
    expect(parseTimeZone('Mars/Olympus')).toEqual({ ok: false, problem: { field: 'timeZone', reason: '"Mars/Olympus" is not an IANA time zone (e.g. UTC, Europe/Paris)' } });
  });

  it('sends only what changed on edit; clearing sends null / []', () => {
    const initial = limitsFormOf({ periodic_limits: [{ period: 'day', metric: 'cost', limit: 1_000_000 }], time_zone: 'UTC', alert_thresholds: [80] });
    expect(changedLimits(initial, { ...initial })).toEqual({ ok: true, value: {} });
    expect(changedLimits(initial, { ...initial, rows: [{ ...initial.rows[0]!, limit: ' 1 ' }] })).toEqual({ ok: true, value: {} });
    expect(changedLimits(initial, { rows: [], timeZone: '', thresholds: '' })).toEqual({
      ok: true,
      value: { periodic_limits: [], time_zone: null, alert_thresholds: null },
    });
    expect(changedLimits(initial, { ...initial, thresholds: '50,80' })).toEqual({ ok: true, value: { alert_thresholds: [50, 80] } });
    expect(changedLimits(initial, { ...initial, timeZone: 'Nowhere' })).toMatchObject({ ok: false, problem: { field: 'timeZone' } });
  });

  it('adds a row for the next period and metric not limited yet', () => {
    expect(nextLimitRow([])).toEqual({ period: 'day', metric: 'cost', limit: '' });
    expect(nextLimitRow([{ period: 'day', metric: 'cost', limit: '1' }])).toEqual({ period: 'week', metric: 'cost', limit: '' });
    expect(parseLimitsForm(EMPTY_LIMITS_FORM)).toEqual({ ok: true, value: { periodic_limits: [], time_zone: null, alert_thresholds: null } });
  });
});
