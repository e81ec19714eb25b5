import { upstreamError, type RelayError } from '../../errors/relay-error';

/** Converse's errors are Bedrock Runtime's: one mapper for the HTTP answers and one for the stream's exceptions. */
export { mapBedrockErrorResponse as mapConverseErrorResponse, mapBedrockStreamException as mapConverseStreamException } from '../bedrock-error';

/** A stop reason that says the model wrote nothing usable (`malformed_tool_use`, `malformed_model_output`). */
export function malformedOutput(stopReason: string): RelayError {
  return upstreamError(`The model stopped without a usable answer (${stopReason}).`, stopReason);
}
