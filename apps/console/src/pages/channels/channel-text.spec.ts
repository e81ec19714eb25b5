import type { ChannelCheck } from '@chat-relay/contract';
import { keyStatus } from '../../testing/fixtures';
import { describeCircuit, describeDisabledKey, describeLastCheck, describeRefusedParameters, describeTestResult, testableModels } from './channel-text';

describe('channel health in words', () => {
  it('gives a passing test its latency and model, a failing one the upstream’s message and status', () => {
    expect(describeTestResult({ ok: true, latency_ms: 123, model: 'gpt-4o' })).toBe('OK · 123 ms · gpt-4o');
    const refused = { ok: false, latency_ms: 80, model: 'gpt-4o', status: 401, error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };
    expect(describeTestResult(refused)).toBe('Incorrect API key provided · HTTP 401 · 80 ms · gpt-4o');
    expect(describeTestResult({ ok: false, latency_ms: 5000, model: 'gpt-4o' })).toBe('The test failed · no answer · 5000 ms · gpt-4o');
  });

  it('says whether the last check was a manual test or the scheduled one, or that there was none', () => {
    const check: ChannelCheck = { ok: true, latency_ms: 42, model: 'm', at: '2026-11-01T10:00:00.000Z', trigger: 'scheduled' };
    expect(describeLastCheck(check)).toMatch(/^OK · 42 ms · m — scheduled check, /);
    expect(describeLastCheck({ ...check, trigger: 'manual' })).toContain('manual test');
    expect(describeLastCheck(null)).toBe('Not tested since this relay instance started');
  });

  it('tells an open circuit apart with when it lets a trial through', () => {
    expect(describeCircuit({ state: 'closed', attempts: 10, failures: 1, open_until: null })).toMatchObject({ tone: 'ok', detail: '1 of 10 recent attempts failed' });
    const open = describeCircuit({ state: 'open', attempts: 10, failures: 6, open_until: '2026-11-01T10:00:00.000Z' });
    expect(open).toMatchObject({ label: 'Circuit open', tone: 'bad' });
    expect(open.detail).toContain('no requests until');
    expect(describeCircuit({ state: 'half_open', attempts: 1, failures: 1, open_until: null }).tone).toBe('warn');
  });

  it('puts a disabled key’s reason first', () => {
    expect(describeDisabledKey(keyStatus({ status: 'disabled', reason: 'upstream answered 401', changed_at: '2026-11-01T10:00:00.000Z' }))).toMatch(/^upstream answered 401 \(since /);
    expect(describeDisabledKey(keyStatus({ status: 'disabled' }))).toBe('disabled');
  });

  it('offers plain model names and mapped names for a test, never a glob', () => {
    expect(testableModels({ models: ['gpt-4o', 'gpt-4.1*', 'o?'], model_mapping: { fast: 'gpt-4o-mini', 'gpt-4o': 'x' } })).toEqual(['gpt-4o', 'fast']);
  });

  it('names what the upstream refused by name, per model, or nothing', () => {
    expect(describeRefusedParameters({ refused_parameters: [] })).toBeUndefined();
    const since = '2026-11-29T07:00:00.000Z';
    expect(
      describeRefusedParameters({
        refused_parameters: [
          { model: 'gpt-4o', field: 'top_k', at_most: null, since },
          { model: 'gpt-4o', field: 'max_tokens', at_most: 16384, since },
        ],
      }),
    ).toBe('Upstream refused, left out since: top_k (gpt-4o); max_tokens over 16384 (gpt-4o)');
  });
});
