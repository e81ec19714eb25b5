import type { ChatCompletionRequest } from '@chat-relay/contract';
import { asFunctionCall, decideAnswer, requestDigest } from '../decide-answer';
import { factsFor, geminiModelFacts } from '../model-facts';
import type { Content, GenerateContentRequest, Part } from './gemini-api';
import { geminiToInternalRequest } from './to-internal-request';

// Like Gemini 3, the simulator signs the first function call of every answer and wants that
// signature back when the call returns in the history of the current turn. It keeps no state: a model turn is
// "its own" when the same brain, asked the conversation before that turn, gives those calls.

const signatureText = 'upstream-sim thought signature ';

/** The signature the simulator puts on the first functionCall part when answering `internal`. */
export function thoughtSignatureFor(internal: ChatCompletionRequest): string {
  return Buffer.from(`${signatureText}${requestDigest(internal).slice(0, 32)}`).toString('base64');
}

/** JSON with sorted keys, so arguments compare by value. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([left], [right]) => left.localeCompare(right));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function isSimsAnswer(prefix: ChatCompletionRequest, callParts: readonly Part[]): boolean {
  const plan = decideAnswer(prefix);
  if (plan.kind !== 'tool_calls' || plan.toolCalls.length !== callParts.length) return false;
  return plan.toolCalls.map(asFunctionCall).every((call, index) => {
    const sent = callParts[index]?.functionCall;
    return (
      sent?.name === call.function.name &&
      canonicalJson(sent.args ?? {}) === canonicalJson(JSON.parse(call.function.arguments))
    );
  });
}

/** Base64 and base64url spell the same bytes; the API compares bytes. */
function sameSignature(sent: string, expected: string): boolean {
  return Buffer.from(sent, 'base64').equals(Buffer.from(expected, 'base64'));
}

/**
 * Where the current turn starts: the last user content that is not function responses (a new
 * question). Gemini 3 checks signatures from there on only; earlier turns are not validated
 * (https://ai.google.dev/gemini-api/docs/thought-signatures: "signatures are validated only
 * for the current turn").
 */
function currentTurnStart(contents: readonly Content[]): number {
  for (let index = contents.length - 1; index >= 0; index -= 1) {
    const content = contents[index];
    if (content?.role === 'user' && content.parts.every((part) => part.functionResponse === undefined)) return index;
  }
  return 0;
}

/**
 * The 400 message when a function-call step of the current turn that the simulator produced
 * comes back without its thought signature on its first call (or with another one), undefined
 * otherwise. Models the facts table knows without the rule (Gemini 2.x) are not checked; an
 * unknown model is, as before the table.
 */
export function findThoughtSignatureProblem(request: GenerateContentRequest, model: string): string | undefined {
  if (factsFor(geminiModelFacts, model)?.signatures === false) return undefined;
  const start = currentTurnStart(request.contents);
  for (const [index, content] of request.contents.entries()) {
    if (index < start || content.role !== 'model') continue;
    const callParts = content.parts.filter((part) => part.functionCall !== undefined);
    const [first] = callParts;
    if (!first?.functionCall) continue;
    const prefix = geminiToInternalRequest({ ...request, contents: request.contents.slice(0, index) }, model);
    if (!isSimsAnswer(prefix, callParts)) continue;
    if (first.thoughtSignature === undefined) {
      // The rule: https://ai.google.dev/gemini-api/docs/thought-signatures (wording as the relay's issue 28 quotes it).
      return (
        'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, ' +
        'and missing thought_signature may lead to degraded model performance. ' +
        `Additional data, function call \`default_api:${first.functionCall.name}\` , position ${index + 1}. ` +
        'Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.'
      );
    }
    if (!sameSignature(first.thoughtSignature, thoughtSignatureFor(prefix))) {
      return `Corrupted thought signature at contents[${index}]: it is not the one returned with this function call.`;
    }
  }
  return undefined;
}
