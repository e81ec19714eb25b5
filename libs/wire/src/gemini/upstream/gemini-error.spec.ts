import { readFixture } from '../../testing/fixtures';
import { mapGeminiErrorResponse } from './gemini-error';
import { expectOpenAiValid } from '../testing/expect-openai-valid';

const KEY = 'AIzaSyA-abcdefghijklmnopqrstuvwxyz012345';
const body = (status: string, message: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ error: { code: 0, message, status, ...extra } });

describe('mapGeminiErrorResponse', () => {
  it('error-429-resource-exhausted.json: a retryable 502 carrying RESOURCE_EXHAUSTED', () => {
    const failure = mapGeminiErrorResponse(429, readFixture('gemini/error-429-resource-exhausted.json'), []);
    expect(failure).toMatchObject({ retryable: true, channelFault: true });
    expect(failure.error.status).toBe(502);
    expect(failure.error.toBody()).toEqual({
      error: {
        type: 'upstream_error',
        code: 'RESOURCE_EXHAUSTED',
        param: null,
        message:
          'The upstream provider failed with status 429 (RESOURCE_EXHAUSTED): ' +
          'You exceeded your current quota, please check your plan.',
      },
    });
    expectOpenAiValid('ErrorResponse', failure.error.toBody());
  });

  it.each([
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
    [504, 'DEADLINE_EXCEEDED'],
  ])('makes %d %s a retryable 502 with the status as code', (status, grpcStatus) => {
    const failure = mapGeminiErrorResponse(status, body(grpcStatus, 'try later'), []);
    expect(failure).toMatchObject({ retryable: true, channelFault: true });
    expect(failure.error.toBody().error).toMatchObject({ type: 'upstream_error', code: grpcStatus });
    expect(failure.error.status).toBe(502);
  });

  it.each([
    [400, 'INVALID_ARGUMENT', '* GenerateContentRequest.generation_config.candidate_count: must be at most 8'],
    [400, 'FAILED_PRECONDITION', 'User location is not supported for the API use.'],
  ])('keeps %d %s with its message, not retryable', (status, grpcStatus, message) => {
    const failure = mapGeminiErrorResponse(status, body(grpcStatus, message), []);
    expect(failure).toMatchObject({ retryable: false, channelFault: false });
    expect(failure.error.status).toBe(400);
    expect(failure.error.toBody()).toEqual({ error: { type: 'invalid_request_error', code: grpcStatus, param: null, message } });
    expectOpenAiValid('ErrorResponse', failure.error.toBody());
  });

  it('keeps NOT_FOUND as a 404', () => {
    const message = 'models/gemini-9 is not found for API version v1beta, or is not supported for generateContent.';
    const failure = mapGeminiErrorResponse(404, body('NOT_FOUND', message), []);
    expect(failure).toMatchObject({ retryable: false, channelFault: false });
    expect(failure.error.status).toBe(404);
    expect(failure.error.toBody().error).toMatchObject({ type: 'invalid_request_error', code: 'NOT_FOUND', message });
  });

  it.each([
    ['401 UNAUTHENTICATED', 401, body('UNAUTHENTICATED', `Request had invalid authentication credentials: ${KEY}`)],
    ['403 PERMISSION_DENIED', 403, body('PERMISSION_DENIED', `Permission denied on key ${KEY}`)],
    [
      '400 API_KEY_INVALID (how Gemini answers a bad key)',
      400,
      body('INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', {
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
      }),
    ],
  ])('turns a rejected key (%s) into a retryable 502 that never repeats the key', (_name, status, text) => {
    const failure = mapGeminiErrorResponse(status, text, [KEY]);
    expect(failure).toMatchObject({ retryable: true, channelFault: false, keyRejected: true });
    expect(failure.error.status).toBe(502);
    expect(failure.error.code).toBe('upstream_auth_failed');
    expect(JSON.stringify(failure.error.toBody())).not.toContain('AIza');
  });

  it('redacts a key quoted in a request error, even one that is not the channel’s', () => {
    const failure = mapGeminiErrorResponse(400, body('INVALID_ARGUMENT', 'bad value near AIzaSyB-zyxwvutsrqponmlkjihgfedcba987654'), []);
    expect(failure.error.message).toBe('bad value near [redacted]');
  });

  it('describes a non-JSON body by its status', () => {
    expect(mapGeminiErrorResponse(502, '<html>Bad Gateway</html>', []).error.toBody().error).toMatchObject({
      type: 'upstream_error',
      code: 'upstream_502',
    });
    const failure = mapGeminiErrorResponse(413, '<html>too large</html>', []);
    expect(failure.error.status).toBe(413);
    expect(failure.error.message).toContain('413');
  });
});
