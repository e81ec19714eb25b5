import { z } from 'zod';
import { rejectedCredentials } from '../errors/key-rejection';
import { RelayError, upstreamError } from '../errors/relay-error';
import { redactUpstreamError } from '../errors/redact-upstream-error';
import type { UpstreamFailure } from '../hub/upstream-adapter';
import { cloudKeyOf } from '../providers/cloud-keys';

/**
 * Bedrock's errors: a JSON body `{"message": …}` (`Message` from some AWS front ends), the
 * exception's name in the `x-amzn-errortype` header — which the relay's mappers do not see, so it
 * is told from the status and the words (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html#API_runtime_InvokeModel_Errors,
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html).
 */
const BedrockErrorBodySchema = z.object({ message: z.string().optional(), Message: z.string().optional() }).passthrough();

function messageOf(text: string): string {
  try {
    const parsed = BedrockErrorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data.message ?? parsed.data.Message ?? '';
  } catch {
    // Not JSON: a proxy's page, say; its words are not Bedrock's.
  }
  return '';
}

/** "Invocation of model ID … with on-demand throughput isn’t supported. Retry your request with the ID or ARN of an inference profile …" */
const ON_DEMAND = /on-demand throughput isn.t supported/i;
const MODEL_ID_IN_MESSAGE = /model ID (\S+) with on-demand/i;
const SIGNATURE_EXPIRED = /signature expired/i;

/** The exception Bedrock names in `x-amzn-errortype` for an answer, as far as status and words tell it. */
export function bedrockErrorTypeOf(status: number, message: string): string {
  switch (status) {
    case 400:
      return /quota/i.test(message) ? 'ServiceQuotaExceededException' : 'ValidationException';
    case 401:
    case 403:
      if (/security token included in the request is invalid/i.test(message)) return 'UnrecognizedClientException';
      if (/signature/i.test(message)) return 'InvalidSignatureException';
      if (/missing authentication token/i.test(message)) return 'MissingAuthenticationTokenException';
      return 'AccessDeniedException';
    case 404:
      return 'ResourceNotFoundException';
    case 408:
      return 'ModelTimeoutException';
    case 424:
      return 'ModelErrorException';
    case 429:
      if (/not ready/i.test(message)) return 'ModelNotReadyException';
      return /quota/i.test(message) ? 'ServiceQuotaExceededException' : 'ThrottlingException';
    case 500:
      return 'InternalServerException';
    case 503:
      return /not ready/i.test(message) ? 'ModelNotReadyException' : 'ServiceUnavailableException';
    default:
      return `upstream_${status}`;
  }
}

/**
 * The channel's secrets as Bedrock could quote them: each key whole, and of access keys the
 * secret access key and session token alone; of a Bedrock API key its token.
 */
export function bedrockSecrets(secrets: readonly string[]): string[] {
  const parts = new Set(secrets);
  for (const secret of secrets) {
    const credential = cloudKeyOf('bedrock', secret);
    if (credential?.kind === 'aws-access-key') {
      parts.add(credential.secretAccessKey);
      if (credential.sessionToken) parts.add(credential.sessionToken);
    } else if (credential?.kind === 'bedrock-api-key') parts.add(credential.token);
  }
  return [...parts];
}

const channelFailure = (status: number, type: string, message: string): UpstreamFailure => ({
  error: upstreamError(`The upstream provider failed with status ${status} (${type})${message ? `: ${message}` : '.'}`, type),
  retryable: true,
  channelFault: true,
});

function mapStatus(status: number, message: string): UpstreamFailure {
  const type = bedrockErrorTypeOf(status, message);
  if ((status === 401 || status === 403) && SIGNATURE_EXPIRED.test(message)) {
    // The relay's clock, not the key: more than 5 minutes off AWS's. Another channel (host) may sign in time.
    return channelFailure(status, type, message);
  }
  if (status === 401 || status === 403) return rejectedCredentials(status, `${message} ${type}`);
  if (status === 400 && ON_DEMAND.test(message)) {
    // The channel's model mapping, not the caller's request: another channel may map the model right.
    const modelId = MODEL_ID_IN_MESSAGE.exec(message)?.[1] ?? '<model id>';
    const fix = `Map the model to an inference profile id, such as 'us.${modelId}', in the channel's model mapping.`;
    return {
      error: new RelayError({ status: 400, type: 'invalid_request_error', code: 'inference_profile_required', message: `${message} ${fix}` }),
      retryable: true,
      channelFault: false,
    };
  }
  if (type === 'ServiceQuotaExceededException' || status === 408 || status === 424 || status === 429 || status >= 500) {
    return channelFailure(status, type, message);
  }
  // "Input is too long for requested model." / "…too many input tokens…": OpenAI's code for it.
  const tooLong = status === 400 && /too long|too many (input )?tokens|context (length|window)/i.test(message);
  const code = status === 404 && /model/i.test(message) ? 'model_not_found' : tooLong ? 'context_length_exceeded' : null;
  return {
    error: new RelayError({
      status: status >= 400 && status < 500 ? status : 400,
      type: 'invalid_request_error',
      code,
      message: message || `The upstream provider rejected the request with status ${status}.`,
    }),
    retryable: false,
    channelFault: false,
  };
}

/**
 * A Bedrock Runtime non-2xx answer → SPEC §9, for InvokeModel and Converse alike (one service,
 * one set of errors):
 * - 400 ValidationException: the caller's request, its status and Bedrock's words kept, not
 *   retried — except "on-demand throughput isn’t supported", the channel's model mapping: its
 *   message names the fix, and another channel is tried;
 * - 401/403 UnrecognizedClientException, InvalidSignatureException, AccessDeniedException: the key
 *   is rejected (disabled, another tried) unless the refusal is about the model (see
 *   key-rejection.ts); "Signature expired" is the relay's clock, retried elsewhere, key kept;
 * - 408 ModelTimeoutException, 424 ModelErrorException, 429 ThrottlingException,
 *   ServiceQuotaExceededException, ModelNotReadyException, 500/503: a retryable 502 whose code is
 *   the exception's name, counted against the channel;
 * - 404 ResourceNotFoundException: 404 (`model_not_found` when it names the model), not retried;
 *   a 400 saying the input is too long is `context_length_exceeded`.
 * The channel's secrets are cut out of every word.
 */
export function mapBedrockErrorResponse(status: number, text: string, secrets: readonly string[]): UpstreamFailure {
  const failure = mapStatus(status, messageOf(text));
  return { ...failure, error: redactUpstreamError(failure.error, bedrockSecrets(secrets)) };
}

/** The exceptions of InvokeModelWithResponseStream's stream (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html#API_runtime_InvokeModelWithResponseStream_ResponseSyntax). */
function streamErrorOf(exception: string, message: string): RelayError {
  const said = message ? `: ${message}` : '.';
  switch (exception) {
    case 'throttlingException':
      return new RelayError({ status: 429, type: 'rate_limit_error', code: exception, message: `The upstream provider throttled the answer${said}` });
    case 'validationException':
      return new RelayError({ status: 400, type: 'invalid_request_error', code: exception, message: message || 'The upstream provider refused the request.' });
    case 'modelTimeoutException':
      return upstreamError(`The model timed out during the stream${said}`, exception, 504);
    case 'serviceUnavailableException':
      return upstreamError(`The upstream provider was unavailable during the stream${said}`, exception, 503);
    default:
      // modelStreamErrorException, internalServerException, and any exception newer than this relay.
      return upstreamError(`The upstream provider failed during the stream (${exception})${said}`, exception);
  }
}

/**
 * An exception message inside a stream (`data`: its `{"message"}` payload) → the stream's error:
 * throttling a 429 `rate_limit_error`, a validation failure the caller's 400, a timeout 504,
 * unavailability 503, a model's stream error or an internal one a 502 — each with the
 * exception's name as its code, secrets cut out.
 */
export function mapBedrockStreamException(exception: string, data: string, secrets: readonly string[]): RelayError {
  return redactUpstreamError(streamErrorOf(exception, messageOf(data)), bedrockSecrets(secrets));
}
