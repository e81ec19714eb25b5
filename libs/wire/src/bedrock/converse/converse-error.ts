import { RelayError, upstreamError } from '../../errors/relay-error';
import { rejectedCredentials } from '../../errors/key-rejection';
import { redactUpstreamError } from '../../errors/redact-upstream-error';
import type { UpstreamFailure } from '../../hub/upstream-adapter';
import { BedrockErrorBodySchema } from './converse-api';

/** What Bedrock says when a model is served only through an inference profile. */
const ON_DEMAND_REFUSED = /on-demand throughput isn.t supported/i;

function messageOf(text: string): string {
  try {
    const parsed = BedrockErrorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) return (parsed.data.message ?? parsed.data.Message ?? '').trim();
  } catch {
    // Not JSON (a proxy's page): no message of Bedrock's to keep.
  }
  return '';
}

/**
 * A Bedrock Runtime failure → SPEC §9. The body is `{"message": …}`; its type travels in the
 * `x-amzn-errortype` header, which this function does not see, so the status decides
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors):
 * - 400 ValidationException: the caller's request, with Bedrock's message — naming the fix when
 *   the model needs an inference profile, `context_length_exceeded` when the input is too long;
 * - 401/403 (UnrecognizedClientException, InvalidSignatureException, AccessDeniedException):
 *   the key is rejected (key-rejection.ts; a refusal of the model leaves the key alone);
 * - 404 ResourceNotFoundException: the model, not retried;
 * - 408 ModelTimeoutException, 424 ModelErrorException, 429 ThrottlingException /
 *   ServiceQuotaExceededException, 5xx (InternalServerException, ServiceUnavailableException,
 *   ModelNotReadyException): the channel's trouble, retried elsewhere.
 */
export function mapConverseErrorResponse(status: number, text: string, secrets: readonly string[]): UpstreamFailure {
  const failure = mapStatus(status, messageOf(text));
  return { ...failure, error: redactUpstreamError(failure.error, secrets) };
}

function mapStatus(status: number, message: string): UpstreamFailure {
  if (status === 401 || status === 403) return rejectedCredentials(status, message);
  if (status === 408 || status === 424 || status === 429 || status >= 500) {
    return {
      error: upstreamError(`The upstream provider failed with status ${status}${message ? `: ${message}` : '.'}`, `upstream_${status}`),
      retryable: true,
      channelFault: true,
    };
  }
  const fallback = `The upstream provider rejected the request with status ${status}.`;
  if (status === 400 && ON_DEMAND_REFUSED.test(message)) {
    const fix = ' Map the model to an inference profile id (e.g. `us.<model id>`) in the channel\'s model mapping.';
    return { error: new RelayError({ status: 400, type: 'invalid_request_error', code: 'model_needs_inference_profile', message: message + fix, param: 'model' }), retryable: false, channelFault: false };
  }
  // "Input is too long for requested model." / "…too many input tokens…": OpenAI's code for it.
  const code = status === 404 ? 'model_not_found' : status === 400 && /too long|too many (input )?tokens|context (length|window)/i.test(message) ? 'context_length_exceeded' : null;
  return {
    error: new RelayError({ status: status >= 400 && status < 500 ? status : 400, type: 'invalid_request_error', code, message: message || fallback }),
    retryable: false,
    channelFault: false,
  };
}

/**
 * An exception inside a ConverseStream (`:exception-type`,
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html):
 * a validationException is the request's (400); throttling, modelStreamError, internalServer and
 * serviceUnavailable are the upstream's failure after the answer began (502, code the exception).
 */
export function mapConverseStreamException(exception: string, text: string, secrets: readonly string[]): RelayError {
  const message = messageOf(text);
  const error =
    exception === 'validationException'
      ? new RelayError({ status: 400, type: 'invalid_request_error', code: exception, message: message || 'The upstream provider refused the request.' })
      : upstreamError(`The upstream provider failed during the stream (${exception})${message ? `: ${message}` : '.'}`, exception);
  return redactUpstreamError(error, secrets);
}

/** A stop reason that says the model wrote nothing usable (`malformed_tool_use`, `malformed_model_output`). */
export function malformedOutput(stopReason: string): RelayError {
  return upstreamError(`The model stopped without a usable answer (${stopReason}).`, stopReason);
}
