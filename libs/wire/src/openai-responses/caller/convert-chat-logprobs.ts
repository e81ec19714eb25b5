import { isJsonObject, isNumber, isString, type JsonObject } from '../../json/json-checks';

/** One token's log probability in a Response's `output_text` part. */
export interface OutputLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: Array<{ token: string; logprob: number; bytes: number[] }>;
}

/** One token's log probability in an `output_text.delta` event (no bytes there). */
export interface DeltaLogprob {
  token: string;
  logprob: number;
  top_logprobs: Array<{ token: string; logprob: number }>;
}

const bytesOf = (value: unknown): number[] => (Array.isArray(value) ? value.filter(isNumber) : []);

function tokensOf(choiceLogprobs: unknown): JsonObject[] {
  const content = isJsonObject(choiceLogprobs) ? choiceLogprobs['content'] : undefined;
  return Array.isArray(content) ? content.filter((entry): entry is JsonObject => isJsonObject(entry) && isString(entry['token']) && isNumber(entry['logprob'])) : [];
}

const topOf = (entry: JsonObject): JsonObject[] =>
  Array.isArray(entry['top_logprobs']) ? entry['top_logprobs'].filter((top): top is JsonObject => isJsonObject(top) && isString(top['token']) && isNumber(top['logprob'])) : [];

/**
 * A hub choice's `logprobs` (`{content: [{token, logprob, bytes, top_logprobs}]}`) → the
 * `logprobs` of a Response's output_text part: the same tokens and numbers (null bytes → []).
 * Refusal logprobs have no place in a Response and are not carried.
 */
export function outputLogprobsOf(choiceLogprobs: unknown): OutputLogprob[] {
  return tokensOf(choiceLogprobs).map((entry) => ({
    token: String(entry['token']),
    logprob: Number(entry['logprob']),
    bytes: bytesOf(entry['bytes']),
    top_logprobs: topOf(entry).map((top) => ({ token: String(top['token']), logprob: Number(top['logprob']), bytes: bytesOf(top['bytes']) })),
  }));
}
