import type { FinishReason } from '@chat-relay/contract';

/** Gemini's FinishReason values (google.ai.generativelanguage.v1beta.Candidate.FinishReason). */
export const GEMINI_FINISH_REASONS = [
  'FINISH_REASON_UNSPECIFIED',
  'STOP',
  'MAX_TOKENS',
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'OTHER',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'MALFORMED_FUNCTION_CALL',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
  'IMAGE_OTHER',
  'NO_IMAGE',
  'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
  'MISSING_THOUGHT_SIGNATURE',
  'MALFORMED_RESPONSE',
] as const;
export type GeminiFinishReason = (typeof GEMINI_FINISH_REASONS)[number];

export type GeminiFinishOutcome =
  | { kind: 'finish'; finishReason: Exclude<FinishReason, 'function_call'> }
  /** The model failed to produce an answer (a broken function call …): an upstream error, not a finish. */
  | { kind: 'failed'; reason: GeminiFinishReason };

const isKnown = (reason: string): reason is GeminiFinishReason =>
  (GEMINI_FINISH_REASONS as readonly string[]).includes(reason);

/**
 * A Gemini finish reason → OpenAI's. Gemini ends a turn of function calls with a plain `STOP`,
 * so `hasToolCalls` (the choice contained a functionCall) turns it into `tool_calls`. A reason
 * Gemini adds later is read like OTHER: the model stopped without saying why.
 */
export function mapGeminiFinishReason(reason: string, hasToolCalls: boolean): GeminiFinishOutcome {
  const stopped = { kind: 'finish', finishReason: hasToolCalls ? 'tool_calls' : 'stop' } as const;
  if (!isKnown(reason)) return stopped;
  switch (reason) {
    case 'STOP':
    case 'OTHER':
    case 'FINISH_REASON_UNSPECIFIED':
    case 'NO_IMAGE':
    case 'IMAGE_OTHER':
      return stopped;
    case 'MAX_TOKENS':
      return { kind: 'finish', finishReason: 'length' };
    case 'SAFETY':
    case 'RECITATION':
    case 'LANGUAGE':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return { kind: 'finish', finishReason: 'content_filter' };
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
    case 'TOO_MANY_TOOL_CALLS':
    case 'MISSING_THOUGHT_SIGNATURE':
    case 'MALFORMED_RESPONSE':
      return { kind: 'failed', reason };
    default: {
      const unhandled: never = reason;
      throw new Error(`unhandled Gemini finish reason ${String(unhandled)}`);
    }
  }
}
