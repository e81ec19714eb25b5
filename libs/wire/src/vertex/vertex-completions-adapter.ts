import type { EndpointAdapter } from '../hub/endpoint-adapter';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer, StreamTransformerOptions } from '../hub/upstream-adapter';
import { isJsonObject } from '../json/json-checks';
import { bridgedCompletionsAdapter } from '../openai-endpoints/bridged-completions-adapter';
import type { JsonRequest } from '../openai-endpoints/endpoint-common';
import { vertexClaudeAdapter } from './vertex-claude-adapters';
import { vertexGeminiAdapter } from './vertex-gemini-adapters';
import { mapVertexErrorResponse } from './vertex-error';
import { isVertexClaude } from './vertex-url';

const claudeCompletions = bridgedCompletionsAdapter(vertexClaudeAdapter, 'Vertex AI');
const geminiCompletions = bridgedCompletionsAdapter(vertexGeminiAdapter, 'Vertex AI');

/** A whole answer from Claude: Anthropic's message (`"type": "message"`); Gemini's has `candidates`. */
function isClaudeAnswer(text: string): boolean {
  try {
    const json: unknown = JSON.parse(text);
    return isJsonObject(json) && json['type'] === 'message';
  } catch {
    return false;
  }
}

/**
 * A stream read by the adapter that asked for it, told by its first event: Anthropic's events are
 * named (`event: message_start`), Gemini's SSE events are bare `data:` lines.
 */
function pickedOnFirstEvent(options: StreamTransformerOptions): StreamTransformer {
  let picked: StreamTransformer | undefined;
  const pick = (event: SseEvent | undefined): StreamTransformer => {
    picked ??= (event?.event !== undefined ? claudeCompletions : geminiCompletions).createStreamTransformer?.(options);
    if (!picked) throw new Error('a bridged completions adapter always streams');
    return picked;
  };
  return {
    transform: (event: SseEvent): StreamStep[] => pick(event).transform(event),
    finish: (): StreamStep[] => pick(undefined).finish(),
    get complete(): boolean {
      return picked?.complete ?? false;
    },
    get usage(): ReportedUsage | undefined {
      return picked?.usage;
    },
    get deliveredChars(): number {
      return picked?.deliveredChars ?? 0;
    },
    get deliveredText(): string {
      return picked?.deliveredText ?? '';
    },
  };
}

/**
 * `/completions` on a Vertex channel, bridged through the chat adapter of the upstream model:
 * Claude's rawPredict for `claude-*`, Gemini's generateContent for the rest. The answer's
 * converter is not told the upstream model, so it is told by the answer's shape.
 */
export const vertexCompletionsAdapter: EndpointAdapter<JsonRequest> = {
  endpoint: 'completions',
  buildRequest: (args) => (isVertexClaude(args.upstreamModel) ? claudeCompletions : geminiCompletions).buildRequest(args),
  convertResponse: (text, context) => (isClaudeAnswer(text) ? claudeCompletions : geminiCompletions).convertResponse(text, context),
  createStreamTransformer: pickedOnFirstEvent,
  mapErrorResponse: mapVertexErrorResponse,
};
