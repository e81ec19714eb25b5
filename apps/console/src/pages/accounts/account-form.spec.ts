import { accountFixture } from '../../testing/fixtures';
import { accountFormFrom, emptyAccountForm, toAccountCreate, toAccountUpdate } from './account-form';

describe('account form → API body', () => {
  it('creates with the quota in micro-USD, or no limit when empty', () => {
    expect(toAccountCreate({ ...emptyAccountForm(), name: ' Team B ', quota: '12.5' })).toEqual({
      ok: true,
      body: { name: 'Team B', role: 'user', status: 'active', quota_limit: 12_500_000 },
    });
    expect(toAccountCreate({ ...emptyAccountForm(), name: 'x' })).toMatchObject({ ok: true, body: { quota_limit: null } });
  });

  it('names what is wrong: an amount that is not one, a missing name', () => {
    expect(toAccountCreate({ ...emptyAccountForm(), name: 'x', quota: '-3' })).toEqual({ ok: false, errors: [expect.stringMatching(/^Quota \(USD\): "-3" is not an amount/)] });
    expect(toAccountCreate(emptyAccountForm())).toEqual({ ok: false, errors: [expect.stringMatching(/^Name: /)] });
  });

  it('edits only what changed, and resets the spend when asked', () => {
    const account = accountFixture({ id: 4, name: 'Team B', role: 'user', quota_limit: 5_000_000, quota_used: 1_000 });
    const form = accountFormFrom(account);
    expect(form.quota).toBe('5');
    expect(toAccountUpdate({ ...form, status: 'disabled', quota: '' }, account)).toEqual({ ok: true, body: { status: 'disabled', quota_limit: null } });
    expect(toAccountUpdate({ ...form, resetUsed: true }, account)).toEqual({ ok: true, body: { quota_used: 0 } });
    expect(toAccountUpdate(form, account)).toEqual({ ok: false, errors: ['Nothing changed.'] });
  });

  it('creates with periodic limits, time zone and thresholds; names a bad one', () => {
    const limits = { rows: [{ period: 'day' as const, metric: 'cost' as const, limit: '20' }], timeZone: 'Asia/Kolkata', thresholds: '80' };
    expect(toAccountCreate({ ...emptyAccountForm(), name: 'Team', limits })).toEqual({
      ok: true,
      body: { name: 'Team', role: 'user', status: 'active', quota_limit: null, periodic_limits: [{ period: 'day', metric: 'cost', limit: 20_000_000 }], time_zone: 'Asia/Kolkata', alert_thresholds: [80] },
    });
    expect(toAccountCreate({ ...emptyAccountForm(), name: 'Team', limits: { ...limits, rows: [{ period: 'day', metric: 'cost', limit: 'lots' }] } })).toEqual({
      ok: false,
      errors: [expect.stringMatching(/^Periodic limits: row 1 \(cost per day\): "lots" is not an amount/)],
    });
    const account = accountFixture({ id: 4, time_zone: 'UTC', alert_thresholds: [50] });
    expect(toAccountUpdate({ ...accountFormFrom(account), limits: { rows: [], timeZone: 'UTC', thresholds: '' } }, account)).toEqual({ ok: true, body: { alert_thresholds: null } });
  });
});
