import { isJsonObject, isNumber, isOptional, isString } from '../../json/json-checks';
import type { ReportedUsage } from '../../hub/upstream-adapter';

/** What the relay needs to know of one streamed chunk; everything else passes through untouched. */
export interface OpenAiChunkFacts {
  choiceCount: number;
  /** Some choice carries a finish reason. */
  finished: boolean;
  /** `usage` as sent: numbers, `null` (include_usage on, not the last chunk) or absent. */
  usage: ReportedUsage | null | undefined;
  /** An error object (or string) sent inside the stream, when there is one. */
  error: unknown;
  /** The tier the chunk says served the answer, as sent. */
  serviceTier: string | undefined;
}

/** Absent, `null`, or passes `check`: how OpenAI-compatible servers send optional fields. */
const isLoose = (value: unknown, check: (value: unknown) => boolean) => value === null || value === undefined || check(value);

/** A count in `prompt_tokens_details`, when it is one: a detail the relay cannot read is not a malformed chunk. */
const detailCount = (details: unknown, name: string): number | undefined => {
  const count = isJsonObject(details) ? details[name] : undefined;
  return typeof count === 'number' && count > 0 ? count : undefined;
};

/**
 * `usage` of a chunk or completion: the two counts, and of the prompt those read from the cache
 * (`prompt_tokens_details.cached_tokens`) and written to it (`cache_write_tokens`, sent by
 * OpenAI-compatible relays in front of Anthropic, this one included); `null`/absent as sent, or
 * false when malformed. Only the usage chunk of a stream gets past the first line.
 */
export function readUsage(value: unknown): ReportedUsage | null | undefined | false {
  if (value === undefined || value === null) return value;
  if (!isJsonObject(value) || !isNumber(value['prompt_tokens']) || !isNumber(value['completion_tokens'])) return false;
  const usage = withAudioTokens({ promptTokens: value['prompt_tokens'] as number, completionTokens: value['completion_tokens'] as number }, value);
  const details = value['prompt_tokens_details'];
  if (details === undefined || details === null) return usage;
  const cacheRead = detailCount(details, 'cached_tokens');
  const cacheWrite = detailCount(details, 'cache_write_tokens');
  if (cacheRead !== undefined) usage.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  return usage;
}

/** `completion_tokens_details.audio_tokens` added to a read usage: an audio answer's tokens, priced apart. */
function withAudioTokens(usage: ReportedUsage, value: Record<string, unknown>): ReportedUsage {
  const audio = detailCount(value['completion_tokens_details'], 'audio_tokens');
  if (audio !== undefined) usage.audioOutputTokens = Math.min(audio, usage.completionTokens);
  return usage;
}

/** Checks one delta and hands its content and tool-call argument (or custom input) text to `deliver`. */
function readDelta(delta: unknown, deliver: (text: string) => void): boolean {
  if (delta === undefined) return true;
  if (!isJsonObject(delta) || !isLoose(delta['content'], isString)) return false;
  const content = delta['content'];
  if (typeof content === 'string' && content !== '') deliver(content);
  const calls = delta['tool_calls'];
  if (calls === undefined || calls === null) return true;
  if (!Array.isArray(calls)) return false;
  for (const call of calls) {
    if (!isJsonObject(call)) return false;
    // A custom tool's call carries its input under `custom` (counted like a function's arguments).
    const custom = call['custom'];
    const fn = custom ?? call['function'];
    const field = custom === undefined ? 'arguments' : 'input';
    if (fn === undefined) continue;
    if (!isJsonObject(fn) || !isOptional(fn[field], isString)) return false;
    const args = fn[field];
    if (typeof args === 'string' && args !== '') deliver(args);
  }
  return true;
}

/**
 * Checks the parts of a parsed `chat.completion.chunk` the relay reads — choices, deltas,
 * finish reasons, usage, an in-stream error — and returns them, or undefined when the event
 * does not have that shape. Hand-written rather than a zod schema: it runs for every chunk of
 * every stream, and needs neither a copy of the chunk nor the fields it does not read.
 */
export function readOpenAiChunk(json: unknown, deliver: (text: string) => void): OpenAiChunkFacts | undefined {
  if (!isJsonObject(json)) return undefined;
  const usage = readUsage(json['usage']);
  if (usage === false) return undefined;
  const error = json['error'];
  if (error !== undefined && !isJsonObject(error) && typeof error !== 'string') return undefined;
  const choices = json['choices'];
  if (choices !== undefined && !Array.isArray(choices)) return undefined;
  let finished = false;
  for (const choice of choices ?? []) {
    if (!isJsonObject(choice) || !isOptional(choice['index'], isNumber) || !isLoose(choice['finish_reason'], isString)) {
      return undefined;
    }
    if (choice['finish_reason']) finished = true;
    if (!readDelta(choice['delta'], deliver)) return undefined;
  }
  const tier = json['service_tier'];
  return { choiceCount: choices?.length ?? 0, finished, usage, error, serviceTier: typeof tier === 'string' ? tier : undefined };
}
