import { tokenFixture } from '../../testing/fixtures';
import { EMPTY_TOKEN_FORM, formOfToken, FormProblem, splitList, tokenCreateOf, tokenUpdateOf } from './token-policy';

describe('token policy forms', () => {
  it('creates with only what was filled in: dollars as micro-USD, local expiry as UTC, lists, limits', () => {
    const body = tokenCreateOf(
      {
        ...EMPTY_TOKEN_FORM,
        name: ' ci bot ',
        quotaUsd: '12.5',
        expires: '2027-01-01T00:00',
        models: 'gpt-4o, gpt-4o-mini\nclaude-*',
        allowedIps: '10.0.0.0/8',
        rpm: '60',
        accountId: '9',
      },
      true,
    );

    expect(body).toEqual({
      name: 'ci bot',
      quota_limit: 12_500_000,
      expires_at: new Date(2027, 0, 1).toISOString(),
      models: ['gpt-4o', 'gpt-4o-mini', 'claude-*'],
      allowed_ips: ['10.0.0.0/8'],
      rate_limit: { rpm: 60 },
      account_id: 9,
    });
    expect(tokenCreateOf({ ...EMPTY_TOKEN_FORM, name: 'x', accountId: '9' }, false)).toEqual({ name: 'x' });
  });

  it('names the field of a value it cannot send', () => {
    const problem = (form: Partial<typeof EMPTY_TOKEN_FORM>) => {
      try {
        tokenCreateOf({ ...EMPTY_TOKEN_FORM, name: 'ci', ...form }, true);
      } catch (error) {
        return error;
      }
      return null;
    };

    expect(problem({ quotaUsd: 'ten' })).toMatchObject({ field: 'quotaUsd', message: expect.stringMatching(/^Quota \(USD\): "ten" is not an amount/) });
    expect(problem({ rpm: '1.5' })).toMatchObject({ field: 'rpm', message: 'Requests per minute: "1.5" is not a whole number above 0' });
    expect(problem({ allowedIps: '10.0.0.300' })).toMatchObject({ field: 'allowedIps', message: expect.stringMatching(/^Allowed IPs: must be an IPv4/) });
    expect(problem({ name: '  ' })).toBeInstanceOf(FormProblem);
  });

  it('splits lists on commas and lines, without blanks or repeats', () => {
    expect(splitList(' a, b\n\nb ,c,')).toEqual(['a', 'b', 'c']);
  });

  it('starts the edit form from the token, quota in plain dollars', () => {
    const token = tokenFixture({ quota_limit: 1_500_000, models: ['gpt-4o', 'o3'], rate_limit: { rpm: 60, tpm: null, concurrency: 2 }, status: 'exhausted' });

    expect(formOfToken(token)).toMatchObject({ quotaUsd: '1.5', models: 'gpt-4o\no3', rpm: '60', tpm: '', concurrency: '2', status: 'active' });
    expect(formOfToken(tokenFixture({ quota_limit: 10_000_000 })).quotaUsd).toBe('10');
  });

  it('updates only the changed fields; cleared fields become null (no limit)', () => {
    const initial = formOfToken(tokenFixture({ quota_limit: 5_000_000, expires_at: '2027-01-01T00:00:30.000Z', rate_limit: { rpm: 60, tpm: 1000, concurrency: null } }));

    expect(tokenUpdateOf(initial, { ...initial })).toBeNull();
    expect(tokenUpdateOf(initial, { ...initial, quotaUsd: '', tpm: '2000', status: 'disabled' })).toEqual({
      status: 'disabled',
      quota_limit: null,
      rate_limit: { tpm: 2000 },
    });
    expect(tokenUpdateOf(initial, { ...initial, rpm: '', models: 'gpt-4o' })).toEqual({ models: ['gpt-4o'], rate_limit: { rpm: null } });
  });

  it('creates and edits periodic limits, time zone and thresholds; a bad one names its field', () => {
    const limits = { rows: [{ period: 'day' as const, metric: 'cost' as const, limit: '1' }, { period: 'day' as const, metric: 'requests' as const, limit: '100' }], timeZone: 'Europe/Paris', thresholds: '80, 50' };
    expect(tokenCreateOf({ ...EMPTY_TOKEN_FORM, name: 'team', limits }, false)).toEqual({
      name: 'team',
      periodic_limits: [
        { period: 'day', metric: 'cost', limit: 1_000_000 },
        { period: 'day', metric: 'requests', limit: 100 },
      ],
      time_zone: 'Europe/Paris',
      alert_thresholds: [50, 80],
    });

    const initial = formOfToken(tokenFixture({ periodic_limits: [{ period: 'day', metric: 'cost', limit: 1_000_000 }], time_zone: 'UTC' }));
    expect(initial.limits).toEqual({ rows: [{ period: 'day', metric: 'cost', limit: '1' }], timeZone: 'UTC', thresholds: '' });
    expect(tokenUpdateOf(initial, { ...initial, limits: { ...initial.limits, rows: [{ period: 'day', metric: 'cost', limit: '2.5' }] } })).toEqual({
      periodic_limits: [{ period: 'day', metric: 'cost', limit: 2_500_000 }],
    });
    expect(tokenUpdateOf(initial, { ...initial, limits: { ...initial.limits, timeZone: '' } })).toEqual({ time_zone: null });

    expect(() => tokenCreateOf({ ...EMPTY_TOKEN_FORM, name: 'x', limits: { ...limits, thresholds: '150' } }, false)).toThrow(
      'Alert thresholds (%): "150" is not a percentage from 1 to 100',
    );
    expect(() => tokenCreateOf({ ...EMPTY_TOKEN_FORM, name: 'x', limits: { ...limits, timeZone: 'Paris' } }, false)).toThrow(/^Time zone: "Paris" is not an IANA time zone/);
  });
});
