import { AnthropicErrorResponseSchema } from '@chat-relay/contract';
import { modelNotFound, noAvailableChannel, RelayError, upstreamError, upstreamTimeout } from '../../errors/relay-error';
import { mapGeminiErrorResponse } from '../../gemini/upstream/gemini-error';
import { toAnthropicError } from './anthropic-error-body';

const relayError = (status: number, overrides: Partial<{ type: string; code: string | null }> = {}) =>
  new RelayError({ status, type: overrides.type ?? 'some_type', code: overrides.code ?? null, message: `failed with ${status}` });

/** The answer, checked against the contract's Anthropic error schema (nothing stripped by it). */
function answerOf(error: RelayError, requestId?: string) {
  const answer = toAnthropicError(error, requestId);
  expect(AnthropicErrorResponseSchema.parse(answer.body)).toEqual(answer.body);
  return answer;
}

describe('toAnthropicError', () => {
  it.each([
    [400, 400, 'invalid_request_error'],
    [401, 401, 'authentication_error'],
    [402, 402, 'billing_error'],
    [403, 403, 'permission_error'],
    [404, 404, 'not_found_error'],
    [408, 408, 'timeout_error'],
    [413, 413, 'request_too_large'],
    [429, 429, 'rate_limit_error'],
    [500, 500, 'api_error'],
    [502, 502, 'api_error'],
    [503, 529, 'overloaded_error'],
    [504, 504, 'timeout_error'],
    [529, 529, 'overloaded_error'],
  ])('a relay %i is Anthropic %i %s', (status, anthropicStatus, type) => {
    const answer = answerOf(relayError(status));
    expect(answer).toEqual({ status: anthropicStatus, body: { type: 'error', error: { type, message: `failed with ${status}` } } });
  });

  it.each([405, 409, 415, 422, 451])('any other 4xx (%i) is an invalid_request_error with its status', (status) => {
    expect(answerOf(relayError(status))).toMatchObject({ status, body: { error: { type: 'invalid_request_error' } } });
  });

  it.each([501, 505, 520, 599])('any other 5xx (%i) is an api_error with its status', (status) => {
    expect(answerOf(relayError(status))).toMatchObject({ status, body: { error: { type: 'api_error' } } });
  });

  it('an exhausted quota is a 402 billing_error, not a 429 a client would retry', () => {
    for (const status of [429, 403, 402]) {
      const answer = answerOf(relayError(status, { type: 'insufficient_quota', code: 'insufficient_quota' }));
      expect(answer).toMatchObject({ status: 402, body: { error: { type: 'billing_error' } } });
    }
  });

  it('an upstream overloaded_error is a 529 whatever its relay status', () => {
    const answer = answerOf(upstreamError('The upstream provider failed with status 529: Overloaded', 'overloaded_error'));
    expect(answer).toEqual({
      status: 529,
      body: { type: 'error', error: { type: 'overloaded_error', message: 'The upstream provider failed with status 529: Overloaded' } },
    });
  });

  it('a Gemini overloaded 503 (UNAVAILABLE) is a 529 overloaded_error, as Anthropic says it (issue 29)', () => {
    const failure = mapGeminiErrorResponse(503, JSON.stringify({ error: { code: 503, status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' } }), []);
    expect(answerOf(failure.error)).toMatchObject({ status: 529, body: { error: { type: 'overloaded_error' } } });
  });

  it('an upstream 503 or 529 without an error body is overloaded too; other upstream failures stay api_error', () => {
    for (const status of [503, 529]) expect(answerOf(upstreamError(`failed with ${status}`, `upstream_${status}`))).toMatchObject({ status: 529, body: { error: { type: 'overloaded_error' } } });
    expect(answerOf(upstreamError('failed with 500', 'INTERNAL'))).toMatchObject({ status: 502, body: { error: { type: 'api_error' } } });
  });

  it('the relay own errors: no channel → 529, upstream timeout → 504, unknown model → 404', () => {
    expect(answerOf(noAvailableChannel('claude-x'))).toMatchObject({ status: 529, body: { error: { type: 'overloaded_error' } } });
    expect(answerOf(upstreamTimeout())).toMatchObject({ status: 504, body: { error: { type: 'timeout_error' } } });
    expect(answerOf(modelNotFound('claude-x'))).toMatchObject({
      status: 404,
      body: { error: { type: 'not_found_error', message: "The model 'claude-x' does not exist or you do not have access to it." } },
    });
  });

  it('carries request_id when given, and none otherwise', () => {
    expect(answerOf(relayError(400), 'req_0123').body).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'failed with 400' },
      request_id: 'req_0123',
    });
    expect(answerOf(relayError(400)).body).not.toHaveProperty('request_id');
    expect(answerOf(relayError(400), '').body).not.toHaveProperty('request_id');
  });
});
