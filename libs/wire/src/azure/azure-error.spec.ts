import { toAnthropicError } from '../anthropic-messages/caller/anthropic-error-body';
import { azureProvider } from '../providers/azure';
import { mapAzureErrorResponse } from './azure-error';

const KEY = 'azure-key-0123456789abcdef';

/**
 * The 400 Azure answers a prompt its content filter refuses, as documented
 * (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/concepts/content-filter) and as the
 * service sends it: `type: null`, `status`, `innererror` with the verdicts.
 */
const CONTENT_FILTER_400 = JSON.stringify({
  error: {
    message:
      "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
    type: null,
    param: 'prompt',
    code: 'content_filter',
    status: 400,
    innererror: {
      code: 'ResponsibleAIPolicyViolation',
      content_filter_result: {
        hate: { filtered: false, severity: 'safe' },
        jailbreak: { filtered: false, detected: false },
        self_harm: { filtered: false, severity: 'safe' },
        sexual: { filtered: false, severity: 'safe' },
        violence: { filtered: true, severity: 'medium' },
      },
    },
  },
});

const ACCESS_DENIED_401 = JSON.stringify({
  error: {
    code: '401',
    message:
      'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
  },
});

const DEPLOYMENT_NOT_FOUND_404 = JSON.stringify({
  error: {
    code: 'DeploymentNotFound',
    message: 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
  },
});

const RATE_LIMITED_429 = JSON.stringify({
  error: {
    code: '429',
    message:
      'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds.',
  },
});

describe('Azure OpenAI errors', () => {
  it("a prompt the content filter refuses is the caller's: 400 content_filter, not retried, no channel fault, the key kept", () => {
    const failure = mapAzureErrorResponse(400, CONTENT_FILTER_400, [KEY]);
    expect(failure).toMatchObject({ retryable: false, channelFault: false });
    expect(failure.keyRejected).toBeUndefined();
    expect(failure.error.toBody()).toEqual({
      error: { type: 'invalid_request_error', code: 'content_filter', param: 'prompt', message: expect.stringContaining("Azure OpenAI's content management policy") },
    });
    expect(failure.error.status).toBe(400);
  });

  it('knows the refusal by its inner code alone, and says what happened when Azure gave no message', () => {
    const text = JSON.stringify({ error: { code: 'BadRequest', innererror: { code: 'ResponsibleAIPolicyViolation' } } });
    const failure = mapAzureErrorResponse(400, text, []);
    expect(failure.error.code).toBe('content_filter');
    expect(failure.error.message).toMatch(/content management policy/);
    expect(failure.retryable).toBe(false);
  });

  it('reaches an Anthropic caller as a 400 invalid_request_error with the filter named in the message', () => {
    const { status, body } = toAnthropicError(mapAzureErrorResponse(400, CONTENT_FILTER_400, []).error);
    expect(status).toBe(400);
    expect(body.error).toEqual({ type: 'invalid_request_error', message: expect.stringContaining('content management policy') });
  });

  it("Azure's 401 rejects the key; a 429 is the channel's and retryable, not the key's", () => {
    expect(mapAzureErrorResponse(401, ACCESS_DENIED_401, [KEY])).toMatchObject({ keyRejected: true, retryable: true, channelFault: false });
    const limited = mapAzureErrorResponse(429, RATE_LIMITED_429, [KEY]);
    expect(limited).toMatchObject({ retryable: true, channelFault: true });
    expect(limited.keyRejected).toBeUndefined();
  });

  it('DeploymentNotFound names the deployment and the model mapping, and lets another channel try', () => {
    const failure = mapAzureErrorResponse(404, DEPLOYMENT_NOT_FOUND_404, [KEY], 'prod-4o');
    expect(failure).toMatchObject({ retryable: true, channelFault: false });
    expect(failure.keyRejected).toBeUndefined();
    expect(failure.error.code).toBe('deployment_not_found');
    expect(failure.error.message).toContain("has no deployment named 'prod-4o'");
    expect(failure.error.message).toContain("the channel's model mapping");
    expect(failure.error.message).toContain('The API deployment for this resource does not exist.');
    expect(mapAzureErrorResponse(404, DEPLOYMENT_NOT_FOUND_404, []).error.message).toContain('has no deployment by the name this channel maps the model to');
  });

  it('every adapter of the type maps with these rules, and redacts the key', () => {
    const echoed = JSON.stringify({ error: { code: 'content_filter', message: `filtered ${KEY}`, innererror: { code: 'ResponsibleAIPolicyViolation' } } });
    const adapters = [azureProvider.chat, azureProvider.json?.embeddings, azureProvider.multipart?.audio_transcriptions, azureProvider.native?.responses];
    for (const adapter of adapters) {
      const failure = adapter?.mapErrorResponse(400, echoed, [KEY]);
      expect(failure?.error.code).toBe('content_filter');
      expect(failure?.error.message).not.toContain(KEY);
    }
    expect(azureProvider.modelList?.mapErrorResponse(401, ACCESS_DENIED_401, [KEY]).keyRejected).toBe(true);
  });
});
