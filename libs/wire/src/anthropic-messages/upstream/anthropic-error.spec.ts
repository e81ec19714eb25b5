import { createOpenAiSpecValidator } from '@chat-relay/contract/testing';
import { mapAnthropicErrorResponse } from './anthropic-error';
import { cassetteResponseText, readCassette } from '../testing/anthropic-fixtures';

const openAiSpec = createOpenAiSpecValidator();
const KEY = 'sk-ant-api03-abcdefghijklmnop';
const body = (type: string, message: string) => JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_1' });

function map(status: number, text: string) {
  const failure = mapAnthropicErrorResponse(status, text, [KEY]);
  expect(openAiSpec.errorsFor('ErrorResponse', failure.error.toBody())).toEqual([]);
  return failure;
}

describe('mapAnthropicErrorResponse', () => {
  it('keeps a recorded 400 invalid_request_error with its status and message, not retryable', () => {
    const [interaction] = readCassette('anthropic/cassette-error-400-invalid-request.yaml');
    const failure = map(interaction!.response.status.code, cassetteResponseText(interaction!));
    expect(failure).toMatchObject({ retryable: false, channelFault: false });
    expect(failure.error.status).toBe(400);
    expect(failure.error.toBody().error).toEqual({
      type: 'invalid_request_error',
      code: null,
      param: null,
      message: "This model does not support effort level 'xhigh'. Supported levels: high, low, max, medium.",
    });
  });

  it.each([
    [529, 'overloaded_error', 'Overloaded'],
    [429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'],
    [500, 'api_error', 'Internal server error'],
    [504, 'timeout_error', 'Request timed out'],
  ])('makes %d %s a retryable 502 upstream_error carrying the Anthropic type', (status, type, message) => {
    const failure = map(status, body(type, message));
    expect(failure).toMatchObject({ retryable: true, channelFault: true });
    expect(failure.error.status).toBe(502);
    expect(failure.error.toBody().error).toEqual({
      type: 'upstream_error',
      code: type,
      param: null,
      message: `The upstream provider failed with status ${status}: ${message}`,
    });
  });

  it.each([
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [402, 'billing_error'],
  ])('turns a refused channel account (%d %s) into a retryable 502 that never repeats the key', (status, type) => {
    const failure = map(status, body(type, `invalid x-api-key ${KEY}`));
    // A refused key is disabled (SPEC §6); an account out of credit counts against the channel.
    expect(failure).toMatchObject(
      status === 402 ? { retryable: true, channelFault: true } : { retryable: true, channelFault: false, keyRejected: true },
    );
    expect(failure.error.status).toBe(502);
    expect(failure.error.type).toBe('upstream_error');
    expect(JSON.stringify(failure.error.toBody())).not.toContain('abcdefghijklmnop');
    expect(failure.error.message).not.toContain('x-api-key');
  });

  it('maps not_found_error to a 404 and request_too_large to a 413', () => {
    const missing = map(404, body('not_found_error', 'model: claude-nope'));
    expect(missing).toMatchObject({ retryable: false, channelFault: false });
    expect(missing.error.status).toBe(404);
    expect(missing.error.toBody().error).toMatchObject({
      type: 'invalid_request_error',
      code: 'model_not_found',
      message: 'model: claude-nope',
    });
    const large = map(413, body('request_too_large', 'Request exceeds the maximum allowed number of bytes.'));
    expect(large.error.status).toBe(413);
    expect(large.error.code).toBe('request_too_large');
  });

  it('redacts secrets quoted in a request error and describes a non-JSON body by its status', () => {
    expect(map(400, body('invalid_request_error', `bad header ${KEY}`)).error.message).toBe('bad header [redacted]');
    const html = map(400, '<html>Bad Request</html>');
    expect(html.error.message).toBe('The upstream provider rejected the request with status 400.');
    const gateway = map(502, '<html>Bad Gateway</html>');
    expect(gateway).toMatchObject({ retryable: true });
    expect(gateway.error.code).toBe('upstream_502');
  });
});
