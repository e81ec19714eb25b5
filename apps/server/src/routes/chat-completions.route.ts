import type { ChatCompletion } from '@chat-relay/contract';
import { chatContract } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { performance } from 'node:perf_hooks';
import { invalidRequest, modelNotFound } from '../errors/relay-error';
import type { ChannelRegistry } from '../relay/channel-registry';
import { relayChatCompletion, type ChatRelayDeps } from '../relay/relay-chat-completion';
import { SSE_HEADERS } from '../relay/sse';

export interface ChatRouteDeps extends ChatRelayDeps {
  registry: ChannelRegistry;
}

/** `POST /v1/chat/completions` and the model list (API token). */
export function chatRouter(deps: ChatRouteDeps) {
  const s = initServer();
  return s.router(chatContract, {
    createChatCompletion: async ({ body, res }) => {
      const trace = res.locals.trace;
      if (!trace) throw new Error('usage log middleware missing on the chat route');
      trace.requestedModel = body.model;
      trace.stream = body.stream === true;
      if (body.stream_options && !body.stream) {
        throw invalidRequest('stream_options is only allowed when stream is true.', 'stream_options', 'invalid_value');
      }

      const abort = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      const result = await relayChatCompletion(deps, body, trace, abort.signal);
      if (result.kind === 'json') {
        trace.ttfbMs = performance.now() - trace.startedAt;
        return { status: 200, body: result.body as ChatCompletion };
      }
      for (const [name, value] of Object.entries(SSE_HEADERS)) res.setHeader(name, value);
      // ts-rest pipes a stream body to the response as it comes; the contract types the JSON form.
      return { status: 200, body: result.body as unknown as ChatCompletion };
    },

    listModels: async () => {
      const channels = (await deps.registry.all()).filter((channel) => channel.record.enabled);
      const seen = new Map<string, { created: number; ownedBy: string }>();
      for (const channel of channels) {
        for (const id of channel.listableModels()) {
          if (!seen.has(id)) {
            seen.set(id, { created: Math.floor(Date.parse(channel.record.createdAt) / 1000), ownedBy: channel.record.type });
          }
        }
      }
      const data = [...seen.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([id, info]) => ({ id, object: 'model' as const, created: info.created, owned_by: info.ownedBy }));
      return { status: 200, body: { object: 'list' as const, data } };
    },

    retrieveModel: async ({ params }) => {
      const [channel] = await deps.registry.candidatesFor(params.model);
      if (!channel) throw modelNotFound(params.model);
      const created = Math.floor(Date.parse(channel.record.createdAt) / 1000);
      return { status: 200, body: { id: params.model, object: 'model' as const, created, owned_by: channel.record.type } };
    },
  });
}
