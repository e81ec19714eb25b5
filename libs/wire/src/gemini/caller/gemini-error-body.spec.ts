import { GeminiErrorResponseSchema } from '@chat-relay/contract';
import { authenticationError, internalError, invalidRequest, modelNotFound, noAvailableChannel, RelayError, upstreamError, upstreamTimeout } from '../../errors/relay-error';
import { toGeminiError } from './gemini-error-body';

describe('toGeminiError', () => {
  it.each([
    [invalidRequest('bad', 'generationConfig.temperature'), 400, 'INVALID_ARGUMENT'],
    [authenticationError('invalid_api_key', 'Incorrect API key provided.'), 401, 'UNAUTHENTICATED'],
    [new RelayError({ status: 403, type: 'permission_error', code: 'ip_not_allowed', message: 'no' }), 403, 'PERMISSION_DENIED'],
    [modelNotFound('nope'), 404, 'NOT_FOUND'],
    [new RelayError({ status: 429, type: 'rate_limit_exceeded', code: 'rate_limit_exceeded', message: 'slow down' }), 429, 'RESOURCE_EXHAUSTED'],
    [new RelayError({ status: 429, type: 'insufficient_quota', code: 'insufficient_quota', message: 'quota' }), 429, 'RESOURCE_EXHAUSTED'],
    [internalError(), 500, 'INTERNAL'],
    [upstreamError('upstream failed', 'RESOURCE_EXHAUSTED'), 502, 'UNAVAILABLE'],
    [noAvailableChannel('m'), 503, 'UNAVAILABLE'],
    [upstreamTimeout(), 504, 'DEADLINE_EXCEEDED'],
    [new RelayError({ status: 413, type: 'invalid_request_error', code: 'request_too_large', message: 'big' }), 413, 'INVALID_ARGUMENT'],
  ])('%s → %i %s, a google.rpc.Status', (error, status, name) => {
    const answer = toGeminiError(error);
    expect(answer.status).toBe(status);
    expect(answer.body.error).toMatchObject({ code: status, status: name, message: error.message });
    expect(GeminiErrorResponseSchema.safeParse(answer.body).success).toBe(true);
  });

  it('a caller’s error a Gemini channel answered keeps Gemini’s own status name', () => {
    const error = new RelayError({ status: 400, type: 'invalid_request_error', code: 'FAILED_PRECONDITION', message: 'region' });
    expect(toGeminiError(error).body).toEqual({ error: { code: 400, message: 'region', status: 'FAILED_PRECONDITION' } });
  });

  it('the relay’s code is an ErrorInfo reason; the field at fault a BadRequest violation', () => {
    expect(toGeminiError(invalidRequest('temperature is too high', 'generationConfig.temperature', 'invalid_value')).body.error.details).toEqual([
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'invalid_value', domain: 'chat-relay' },
      { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'generationConfig.temperature', description: 'temperature is too high' }] },
    ]);
  });
});
