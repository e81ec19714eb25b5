import type { ChannelType } from '@chat-relay/contract';
import { GEMINI_EMBED_TO_EMBEDDINGS, jsonEndpointAdapter, lossOf, nativeChannelType, type EndpointAdapter } from '@chat-relay/wire';

type JsonRequest = Readonly<Record<string, unknown>>;

/**
 * The embeddings adapter of a channel of `type` for a Gemini caller: a channel speaking Gemini's
 * API takes `task_type` (its own `taskType`); any other is sent the request without it, and the
 * attempt's warnings say so.
 */
export function embeddingsAdapterForGemini(type: ChannelType): EndpointAdapter<JsonRequest> | undefined {
  const adapter = jsonEndpointAdapter('embeddings', type);
  if (!adapter || type === nativeChannelType('generate_content')) return adapter;
  return {
    ...adapter,
    buildRequest: (args) => {
      const { task_type: taskType, ...request } = args.request;
      if (taskType === undefined) return adapter.buildRequest(args);
      const built = adapter.buildRequest({ ...args, request, rawBody: undefined });
      const dropped = lossOf(GEMINI_EMBED_TO_EMBEDDINGS.rules.taskType, { from: String(taskType) });
      return { ...built, warnings: [...(built.warnings ?? []), dropped] };
    },
  };
}
