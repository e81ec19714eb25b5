import type { EndpointAdapter } from '../hub/endpoint-adapter';
import { chainTransformers } from '../hub/chain-transformers';
import type { ProviderAdapter } from '../hub/provider-adapter';
import { ChatToCompletionStream, convertChatToCompletion } from './convert-chat-to-completion';
import { convertCompletionToChat } from './convert-completion-to-chat';
import { NO_USAGE, textsOf, uncountedUsage, type JsonRequest } from './endpoint-common';

/**
 * `/completions` on a channel without the route (Anthropic, Gemini): the prompt sent as one chat
 * turn through the channel's chat adapter, its answer and stream turned back into
 * `text_completion`s. Errors are mapped as the chat adapter maps them.
 */
export function bridgedCompletionsAdapter(provider: ProviderAdapter, providerName: string): EndpointAdapter<JsonRequest> {
  return {
    endpoint: 'completions',
    buildRequest: ({ channel, key, request, upstreamModel }) =>
      provider.buildRequest({ channel, key, request: convertCompletionToChat(request, providerName), upstreamModel }),
    convertResponse: (text, { request, publicModel }) => {
      const converted = provider.convertResponse(text, publicModel);
      if (!converted.ok) return converted;
      const usage = converted.usage
        ? { ...NO_USAGE, promptTokens: converted.usage.promptTokens, completionTokens: converted.usage.completionTokens }
        : uncountedUsage(textsOf(request['prompt']).join('\n'));
      return { ok: true, kind: 'json', body: convertChatToCompletion(converted.body), usage };
    },
    createStreamTransformer: (options) => chainTransformers(provider.createStreamTransformer(options), new ChatToCompletionStream()),
    mapErrorResponse: (status, text, secrets) => provider.mapErrorResponse(status, text, secrets),
  };
}
