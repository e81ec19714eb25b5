/** Test-only: convert a Responses request the way the relay does, checking what it would send. */
import { ChatCompletionRequestSchema, ResponseInputItemSchema, ResponsesRequestSchema, type ResponsesRequest } from '@chat-relay/contract';
import { RelayError } from '../../errors/relay-error';
import { convertResponsesToChat, type ConvertedResponsesRequest } from '../caller/convert-responses-to-chat';

/** A Responses request as the route would have parsed it, with defaults for what a spec does not care about. */
export const responsesRequest = (fields: Record<string, unknown>): ResponsesRequest =>
  ResponsesRequestSchema.parse({ model: 'gpt-bridged', input: 'Hi', ...fields });

/** Converts (history items parsed by the contract too) and checks the hub request is one the contract itself accepts. */
export function bridgeResponses(fields: Record<string, unknown>, history: unknown[] = []): ConvertedResponsesRequest {
  const converted = convertResponsesToChat(
    responsesRequest(fields),
    history.map((item) => ResponseInputItemSchema.parse(item)),
  );
  const reparsed = ChatCompletionRequestSchema.safeParse(converted.request);
  expect(reparsed.success ? [] : reparsed.error.issues).toEqual([]);
  return converted;
}

/** The hub messages of a request with this `input`. */
export const bridgedMessages = (input: unknown, fields: Record<string, unknown> = {}, history: unknown[] = []) =>
  bridgeResponses({ input, ...fields }, history).request.messages;

/** The 400 the conversion throws (a request no channel can serve as it is). */
export function bridgeErrorFor(fields: Record<string, unknown>, history: unknown[] = []): RelayError {
  try {
    bridgeResponses(fields, history);
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('expected the conversion to fail with a RelayError');
}

/** `[param, message]` of the native-only refusal, to assert both at once. */
export function nativeOnlyOf(fields: Record<string, unknown>, history: unknown[] = []): [string | null, string] | undefined {
  const { nativeOnly } = convertResponsesToChat(
    responsesRequest(fields),
    history.map((item) => ResponseInputItemSchema.parse(item)),
  );
  return nativeOnly ? [nativeOnly.param, nativeOnly.message] : undefined;
}
