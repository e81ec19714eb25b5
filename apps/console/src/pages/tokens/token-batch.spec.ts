import { EMPTY_LIMITS_FORM } from '../../api/limits-form';
import { batchLimitsUpdateOf, deleteQuestion, describeBatch } from './token-batch';

describe('token batch outcome', () => {
  it('says how many changed', () => {
    expect(describeBatch({ action: 'disable', results: [{ id: 1, status: 'ok' }, { id: 2, status: 'ok' }] })).toBe('Disabled 2 tokens.');
    expect(describeBatch({ action: 'enable', results: [{ id: 1, status: 'ok' }] })).toBe('Enabled 1 token.');
  });

  it('names the ids that were not found', () => {
    expect(describeBatch({ action: 'delete', results: [{ id: 1, status: 'ok' }, { id: 9, status: 'not_found' }, { id: 11, status: 'not_found' }] })).toBe(
      'Deleted 1 token; 2 were not found (#9, #11).',
    );
  });

  it('asks before deleting, with the count', () => {
    expect(deleteQuestion(3)).toMatch(/^Delete 3 tokens\?/);
  });

  it('sets only the chosen limits fields on the selected tokens', () => {
    const form = { rows: [{ period: 'day' as const, metric: 'cost' as const, limit: '20' }], timeZone: 'Asia/Tokyo', thresholds: '80' };
    expect(batchLimitsUpdateOf(form, { periodicLimits: true, timeZone: false, alertThresholds: false })).toEqual({
      ok: true,
      update: { periodic_limits: [{ period: 'day', metric: 'cost', limit: 20_000_000 }] },
    });
    expect(batchLimitsUpdateOf(form, { periodicLimits: false, timeZone: true, alertThresholds: true })).toEqual({
      ok: true,
      update: { time_zone: 'Asia/Tokyo', alert_thresholds: [80] },
    });
    // No rows with "replace" ticked removes every periodic limit; an unticked field's bad text is not looked at.
    expect(batchLimitsUpdateOf({ ...EMPTY_LIMITS_FORM, timeZone: 'Nowhere' }, { periodicLimits: true, timeZone: false, alertThresholds: false })).toEqual({
      ok: true,
      update: { periodic_limits: [] },
    });
    expect(batchLimitsUpdateOf({ ...form, timeZone: 'Nowhere' }, { periodicLimits: false, timeZone: true, alertThresholds: false })).toEqual({
      ok: false,
      error: 'Time zone: "Nowhere" is not an IANA time zone (e.g. UTC, Europe/Paris)',
    });
    expect(batchLimitsUpdateOf(form, { periodicLimits: false, timeZone: false, alertThresholds: false })).toEqual({ ok: false, error: 'Choose what to set on the selected tokens.' });
    expect(describeBatch({ action: 'update', results: [{ id: 1, status: 'ok' }] })).toBe('Updated 1 token.');
  });
});
