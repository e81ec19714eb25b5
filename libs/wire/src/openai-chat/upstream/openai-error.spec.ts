import { readFixture } from '../../testing/fixtures';
import { mapOpenAiErrorResponse } from './openai-error';

describe('mapOpenAiErrorResponse', () => {
  it('keeps a request error from the upstream with its status, message, param and code', () => {
    const body = readFixture('openai/error-400-unsupported-parameter.json');
    const failure = mapOpenAiErrorResponse(400, body, []);
    expect(failure.retryable).toBe(false);
    expect(failure.channelFault).toBe(false);
    expect(failure.error.status).toBe(400);
    expect(failure.error.toBody().error).toMatchObject({
      type: 'invalid_request_error',
      param: 'max_tokens',
      code: 'unsupported_parameter',
    });
    expect(failure.error.message).toBe(JSON.parse(body).error.message);
  });

  it('makes an upstream 429 a retryable 502 carrying the upstream code', () => {
    const failure = mapOpenAiErrorResponse(429, readFixture('openai/error-429-insufficient-quota.json'), []);
    expect(failure).toMatchObject({ retryable: true, channelFault: true });
    expect(failure.error.status).toBe(502);
    expect(failure.error.toBody().error).toMatchObject({ type: 'upstream_error', code: 'insufficient_quota' });
  });

  it.each([500, 502, 503, 504, 408])('makes %d retryable', (status) => {
    const failure = mapOpenAiErrorResponse(status, 'Bad gateway <html>', []);
    expect(failure.retryable).toBe(true);
    expect(failure.error.toBody().error).toMatchObject({ type: 'upstream_error', code: `upstream_${status}` });
  });

  it.each([401, 403])('turns a rejected channel key (%d) into a 502 that never repeats the key', (status) => {
    const body = JSON.stringify({ error: { message: 'Incorrect API key provided: sk-live-abcdef123456.', code: 'invalid_api_key' } });
    const failure = mapOpenAiErrorResponse(status, body, ['sk-live-abcdef123456']);
    expect(failure).toMatchObject({ retryable: true, channelFault: false, keyRejected: true });
    expect(failure.error.status).toBe(502);
    expect(JSON.stringify(failure.error.toBody())).not.toContain('abcdef');
  });

  it('redacts secrets quoted in request errors', () => {
    const body = JSON.stringify({ error: { message: 'key sk-proj-XYZ12345678 is not allowed for model' } });
    const failure = mapOpenAiErrorResponse(400, body, ['sk-proj-XYZ12345678']);
    expect(failure.error.message).toBe('key [redacted] is not allowed for model');
  });

  it('describes a non-JSON 4xx body by its status', () => {
    const failure = mapOpenAiErrorResponse(404, '<html>not found</html>', []);
    expect(failure.error.status).toBe(404);
    expect(failure.error.message).toContain('404');
  });
});
