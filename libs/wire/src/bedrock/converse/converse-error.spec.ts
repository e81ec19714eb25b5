import { mapConverseErrorResponse } from './converse-error';
import { readRecording, responseText } from './testing/converse-fixtures';

// Bedrock's error bodies are {"message": …}, the type in x-amzn-errortype
// (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors).
const body = (message: string) => JSON.stringify({ message });

describe('mapConverseErrorResponse', () => {
  it('should-handle-api-error-scenarios.json: a recorded 400 ValidationException is the caller’s, with Bedrock’s message', () => {
    const recording = readRecording('should-handle-api-error-scenarios.json');
    expect(recording.status).toBe(400);
    const failure = mapConverseErrorResponse(400, responseText(recording), []);
    expect(failure).toMatchObject({ retryable: false, channelFault: false, error: { status: 400, type: 'invalid_request_error', message: 'The provided model identifier is invalid.' } });
    expect(failure.keyRejected).toBeUndefined();
  });

  it('400 "Input is too long" carries OpenAI’s context_length_exceeded code', () => {
    expect(mapConverseErrorResponse(400, body('Input is too long for requested model.'), []).error).toMatchObject({ status: 400, code: 'context_length_exceeded' });
  });

  it('400 for a model served only through an inference profile names the fix', () => {
    const failure = mapConverseErrorResponse(
      400,
      body('Invocation of model ID meta.llama4-scout-17b-instruct-v1:0 with on-demand throughput isn’t supported. Retry your request with the ID or ARN of an inference profile that contains this model.'),
      [],
    );
    // The channel's model mapping, not the caller's request (bedrock-error.ts): named, and another channel tried.
    expect(failure).toMatchObject({ retryable: true, channelFault: false });
    expect(failure.error).toMatchObject({ status: 400, code: 'inference_profile_required', message: expect.stringContaining("inference profile id, such as 'us.meta.llama4-scout-17b-instruct-v1:0'") });
  });

  it.each([
    [403, 'The security token included in the request is invalid.'],
    [403, 'The request signature we calculated does not match the signature you provided.'],
    [401, 'Invalid API Key format: Must start with pre-defined prefix'],
  ])('%i %s: the key is rejected', (status, message) => {
    expect(mapConverseErrorResponse(status, body(message), [])).toMatchObject({ keyRejected: true, retryable: true, channelFault: false, error: { status: 502, code: 'upstream_auth_failed' } });
  });

  it('403 AccessDeniedException about the model leaves the key alone', () => {
    const failure = mapConverseErrorResponse(403, body("You don't have access to the model with the specified model ID."), []);
    expect(failure.keyRejected).toBeUndefined();
    expect(failure).toMatchObject({ retryable: true, error: { code: 'upstream_permission_denied' } });
  });

  it('404 ResourceNotFoundException is model_not_found, not retried', () => {
    expect(mapConverseErrorResponse(404, body('Model not found.'), [])).toMatchObject({ retryable: false, channelFault: false, error: { status: 404, code: 'model_not_found' } });
  });

  it.each([
    [408, 'ModelTimeoutException'],
    [424, 'ModelErrorException'],
    [429, 'ThrottlingException'],
    [500, 'InternalServerException'],
    [503, 'ServiceUnavailableException'],
  ])('%i is the channel’s trouble: retryable, a channel fault, coded %s', (status, type) => {
    expect(mapConverseErrorResponse(status, body('Too many requests, please wait before trying again.'), [])).toMatchObject({
      retryable: true,
      channelFault: true,
      error: { status: 502, type: 'upstream_error', code: type },
    });
  });

  it('a secret quoted in the message is redacted; a body that is not JSON still maps', () => {
    expect(mapConverseErrorResponse(400, body('bad key ABSKsecret123'), ['ABSKsecret123']).error.message).not.toContain('ABSKsecret123');
    expect(mapConverseErrorResponse(502, '<html>Bad Gateway</html>', [])).toMatchObject({ retryable: true, error: { message: 'The upstream provider failed with status 502 (upstream_502).' } });
  });
});
