import { mapBedrockErrorResponse } from './bedrock-error';

// Bodies as Bedrock writes them: {"message": …}, the exception in x-amzn-errortype
// (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html#API_runtime_InvokeModel_Errors).
const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const secrets = [`AKIAIOSFODNN7EXAMPLE:${secret}`];
const body = (message: string): string => JSON.stringify({ message });
const map = (status: number, message: string) => mapBedrockErrorResponse(status, body(message), secrets);

describe('mapBedrockErrorResponse', () => {
  it('keeps a ValidationException the caller\'s 400, not retried', () => {
    const message = 'Malformed input request: #: extraneous key [foo] is not permitted, please reformat your input and try again.';
    expect(map(400, message)).toEqual({ error: expect.objectContaining({ status: 400, type: 'invalid_request_error', message }), retryable: false, channelFault: false });
  });

  it('names the fix when a model needs an inference profile, and lets another channel try', () => {
    const failure = map(
      400,
      'Invocation of model ID anthropic.claude-sonnet-4-5-20250929-v1:0 with on-demand throughput isn’t supported. Retry your request with the ID or ARN of an inference profile that contains this model.',
    );
    expect(failure.error).toMatchObject({ status: 400, code: 'inference_profile_required' });
    expect(failure.error.message).toContain("'us.anthropic.claude-sonnet-4-5-20250929-v1:0'");
    expect(failure.error.message).toContain("channel's model mapping");
    expect([failure.retryable, failure.channelFault, failure.keyRejected]).toEqual([true, false, undefined]);
  });

  it.each([
    [403, 'The security token included in the request is invalid.'],
    [403, 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.'],
    [401, 'Invalid API Key format: Must start with pre-defined prefix'],
  ])('rejects the key on %s %s', (status, message) => {
    expect(map(status, message)).toMatchObject({ keyRejected: true, retryable: true, channelFault: false, error: { code: 'upstream_auth_failed' } });
  });

  it('keeps the key when access is denied to the model only', () => {
    expect(map(403, "You don't have access to the model with the specified model ID.")).toMatchObject({ retryable: true, error: { code: 'upstream_permission_denied' } });
    expect(map(403, "You don't have access to the model with the specified model ID.").keyRejected).toBeUndefined();
  });

  it('keeps the key on "Signature expired" (the relay\'s clock), and blames the channel', () => {
    const failure = map(403, 'Signature expired: 20251129T100000Z is now earlier than 20251129T100500Z (20251129T101000Z - 5 min.)');
    expect(failure).toMatchObject({ retryable: true, channelFault: true, error: { code: 'InvalidSignatureException' } });
    expect(failure.keyRejected).toBeUndefined();
  });

  it.each([
    [429, 'Too many requests, please wait before trying again.', 'ThrottlingException'],
    [429, 'Too many tokens, please wait before trying again.', 'ThrottlingException'],
    [400, 'Your request exceeded the service quota for this account.', 'ServiceQuotaExceededException'],
    [408, 'Model has timed out in processing the request. Try your request again.', 'ModelTimeoutException'],
    [424, 'The model returned an error.', 'ModelErrorException'],
    [429, 'Model is not ready to serve inference requests.', 'ModelNotReadyException'],
    [500, 'The system encountered an unexpected error during processing. Try your request again.', 'InternalServerException'],
    [503, 'Bedrock is unable to process your request.', 'ServiceUnavailableException'],
  ])('retries %s elsewhere, counted against the channel, code the exception: %s', (status, message, code) => {
    expect(map(status, message)).toEqual({ error: expect.objectContaining({ status: 502, type: 'upstream_error', code }), retryable: true, channelFault: true });
  });

  it('answers a 404 ResourceNotFoundException about the model as model_not_found, not retried', () => {
    expect(map(404, 'Model not found.')).toMatchObject({ retryable: false, error: { status: 404, code: 'model_not_found' } });
  });

  it('reads AWS\'s capitalised Message too, and survives a body that is no JSON', () => {
    expect(mapBedrockErrorResponse(400, JSON.stringify({ Message: 'Bad thing.' }), secrets).error.message).toBe('Bad thing.');
    expect(mapBedrockErrorResponse(400, '<html>oops</html>', secrets).error.message).toBe('The upstream provider rejected the request with status 400.');
  });

  it('cuts the secret access key and a Bedrock API key\'s token out of Bedrock\'s words', () => {
    expect(map(500, `failed for ${secret}`).error.message).not.toContain(secret);
    expect(mapBedrockErrorResponse(400, body('token ABSKsecret-api-key-123456 is bad'), ['ABSKsecret-api-key-123456']).error.message).not.toContain('ABSKsecret');
  });
});
