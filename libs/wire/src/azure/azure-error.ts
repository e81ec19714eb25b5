import { RelayError, upstreamError } from '../errors/relay-error';
import { redactUpstreamError } from '../errors/redact-upstream-error';
import type { UpstreamFailure } from '../hub/upstream-adapter';
import { isJsonObject } from '../json/json-checks';
import { mapOpenAiErrorResponse } from '../openai-chat/upstream/openai-error';

/** What the relay reads of an Azure error body: `{error: {code, message, param, innererror: {code}}}`. */
interface AzureErrorFacts {
  code: string | undefined;
  message: string | undefined;
  param: string | undefined;
  innerCode: string | undefined;
}

const stringOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined);

function readAzureError(text: string): AzureErrorFacts | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = isJsonObject(json) ? json['error'] : undefined;
  if (!isJsonObject(error)) return undefined;
  const inner = error['innererror'];
  return {
    code: stringOf(error['code']),
    message: stringOf(error['message']),
    param: stringOf(error['param']),
    innerCode: isJsonObject(inner) ? stringOf(inner['code']) : undefined,
  };
}

/**
 * A prompt Azure's content filter refused: a 400 with `code: content_filter` and
 * `innererror.code: ResponsibleAIPolicyViolation` (with the verdicts in `content_filter_result`)
 * (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/concepts/content-filter, "You send
 * an inappropriate input prompt": "Modify the prompt and try again").
 */
const isContentFilterRefusal = (status: number, facts: AzureErrorFacts): boolean =>
  status === 400 && (facts.code === 'content_filter' || facts.innerCode === 'ResponsibleAIPolicyViolation');

const CONTENT_FILTERED = "The prompt was filtered by Azure OpenAI's content management policy. Modify the prompt and try again.";

/**
 * An Azure OpenAI non-2xx answer → SPEC §9. Azure's own cases first:
 *
 * - the content filter's refusal of the prompt is the caller's: a 400 `content_filter` (OpenAI's
 *   code for it), never retried on another channel, no fault of the channel, its key kept;
 * - `DeploymentNotFound` (404) says the channel's model mapping names a deployment the resource
 *   does not have: another channel may have it (retried), this one is not unhealthy, its key
 *   is fine — the message names the deployment when the caller of this function knows it;
 *
 * everything else as OpenAI's answers are read: 401/403 reject the key (Azure's 401 "Access
 * denied due to invalid subscription key or wrong API endpoint"), 408/429/5xx are the channel's
 * and retryable (429's `retry-after-ms`/`retry-after` headers are the server's to honour), other
 * 4xx the request's.
 */
export function mapAzureErrorResponse(status: number, text: string, secrets: readonly string[], deployment?: string): UpstreamFailure {
  const facts = readAzureError(text);
  if (facts && isContentFilterRefusal(status, facts)) {
    const error = new RelayError({
      status: 400,
      type: 'invalid_request_error',
      code: 'content_filter',
      param: facts.param ?? 'prompt',
      message: facts.message ?? CONTENT_FILTERED,
    });
    return { error: redactUpstreamError(error, secrets), retryable: false, channelFault: false };
  }
  if (facts && status === 404 && (facts.code === 'DeploymentNotFound' || facts.innerCode === 'DeploymentNotFound')) {
    const named = deployment === undefined ? 'deployment by the name this channel maps the model to' : `deployment named '${deployment}'`;
    const message =
      `The Azure OpenAI resource has no ${named}: the channel's model mapping sends the deployment's name as the upstream model ` +
      `(map the model to the name the deployment has in the resource, or deploy it). Azure said: ${facts.message ?? 'DeploymentNotFound'}`;
    return { error: redactUpstreamError(upstreamError(message, 'deployment_not_found'), secrets), retryable: true, channelFault: false };
  }
  return mapOpenAiErrorResponse(status, text, secrets);
}
