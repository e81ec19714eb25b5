import type { ChatCompletion, Model } from '@chat-relay/contract';
import { AnthropicModelListQuerySchema, chatContract, parseGizmoModel } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { invalidRequest, modelNotFound } from '@chat-relay/wire';
import { isModelAllowed } from '../policy/model-allow-list';
import { chatCompletionsDialect } from '../pipeline/caller-dialect';
import { anthropicModelPage, toAnthropicModel, wantsAnthropicShape } from '../channels/anthropic-model-list';
import { listModels, servedEndpoints } from '../channels/list-models';
import { withCatalogueFacts } from '../catalogue/describe-models';
import type { ModelCatalogueService } from '../catalogue/model-catalogue-service';
import { familyAllowed } from '../pipeline/resolve-model';
import { callerAccountId, runPipeline, type PipelineDeps } from '../pipeline/run-pipeline';
import { relayAnswer } from './relay-answer';

/** A model /v1/messages can use: served for chat. */
const servesChat = (model: Model): boolean => model.endpoints?.includes('chat') ?? true;

/** The catalogue describes the models listed in OpenAI's shape (limits, prices). */
export type ChatRouteDeps = PipelineDeps & { catalogue: ModelCatalogueService };

/** `POST /v1/chat/completions` and the model list (API token). */
export function chatRouter(deps: ChatRouteDeps) {
  const s = initServer();
  return s.router(chatContract, {
    createChatCompletion: async ({ body, req, res }) => {
      const result = await runPipeline(deps, req, res, {
        request: body,
        rawBody: res.locals.rawBody,
        dialect: chatCompletionsDialect,
        validate: () => {
          if (body.stream_options && !body.stream) {
            throw invalidRequest('stream_options is only allowed when stream is true.', 'stream_options', 'invalid_value');
          }
        },
      });
      return relayAnswer<ChatCompletion>(res, result);
    },

    listModels: async ({ req, res }) => {
      const assistants = await deps.assistants.listUsableBy(callerAccountId(res.locals.caller));
      const caller = res.locals.caller;
      const allowList = caller?.kind === 'token' ? caller.token.models : null;
      // Only what this key may use: what the channels serve ∩ the token's allow-list.
      const channels = await deps.registry.all();
      const data = listModels(channels, assistants).filter((model) => isModelAllowed(allowList, model.id));
      // Anthropic's model object has no field for limits or prices: its shape stays as Anthropic's.
      // An Anthropic caller can only use a model through /v1/messages: chat models only (issue 29).
      if (wantsAnthropicShape(req)) {
        const page = AnthropicModelListQuerySchema.safeParse(req.query);
        if (!page.success) throw invalidRequest('limit must be an integer from 1 to 1000; after_id and before_id model ids.', 'limit');
        return { status: 200, body: anthropicModelPage(data.filter(servesChat), page.data) };
      }
      return { status: 200, body: { object: 'list' as const, data: await withCatalogueFacts(data, channels, { priceBook: deps.prices, catalogue: deps.catalogue }) } };
    },

    retrieveModel: async ({ params, req, res }) => {
      const model = params.model;
      // A model the list hides is one the key cannot see: 404, as OpenAI answers for models it does not have.
      const caller = res.locals.caller;
      if (caller?.kind === 'token' && !isModelAllowed(caller.token.models, model)) throw modelNotFound(model);
      const gizmo = parseGizmoModel(model);
      if (gizmo) {
        const assistant = await deps.assistants.resolveFor(callerAccountId(res.locals.caller), gizmo.assistantId);
        const usable =
          assistant &&
          familyAllowed(assistant, gizmo.family) &&
          (await deps.registry.candidatesFor(gizmo.family)).length > 0;
        if (assistant && usable) {
          const created = Math.floor(Date.parse(assistant.createdAt) / 1000);
          const described = { id: model, object: 'model' as const, created, owned_by: 'chat-relay', endpoints: ['chat' as const] };
          return { status: 200, body: wantsAnthropicShape(req) ? toAnthropicModel(described) : described };
        }
      }
      // Any model the list shows, whatever it is served for (an embedding model too).
      const enabled = (await deps.registry.all()).filter((candidate) => candidate.record.enabled);
      const channel = enabled.find((candidate) => servedEndpoints([candidate], model).length > 0);
      if (!channel) throw modelNotFound(model);
      const created = Math.floor(Date.parse(channel.record.createdAt) / 1000);
      const endpoints = servedEndpoints(enabled, model);
      const described = { id: model, object: 'model' as const, created, owned_by: channel.record.type, endpoints };
      if (wantsAnthropicShape(req)) {
        if (!servesChat(described)) throw modelNotFound(model);
        return { status: 200, body: toAnthropicModel(described) };
      }
      const [withFacts] = await withCatalogueFacts([described], enabled, { priceBook: deps.prices, catalogue: deps.catalogue });
      return { status: 200, body: withFacts ?? described };
    },
  });
}
