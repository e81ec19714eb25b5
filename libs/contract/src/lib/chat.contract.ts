import { initContract } from '@ts-rest/core';
import { commonResponses, meta } from './common-responses';
import { ChatCompletionRequestSchema } from './schemas/chat-completion-request.schema';
import { ChatCompletionSchema } from './schemas/chat-completion-response.schema';
import { z } from 'zod';
import { AnthropicModelListSchema, AnthropicModelSchema } from './schemas/anthropic/anthropic-model.schema';
import { ModelListSchema, ModelSchema } from './schemas/model.schema';

/**
 * Anthropic's paging of the model list (`limit` 1–1000, default 20; `after_id`, `before_id`),
 * read by the server in the Anthropic dialect only: declaring it on the route would make every
 * typed client pass an argument OpenAI's list does not have.
 */
export const AnthropicModelListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    after_id: z.string().optional(),
    before_id: z.string().optional(),
  })
  .passthrough();

const c = initContract();

export const chatContract = c.router(
  {
    createChatCompletion: {
      method: 'POST',
      path: '/v1/chat/completions',
      summary: 'Create a chat completion (streamed as text/event-stream when `stream` is true)',
      body: ChatCompletionRequestSchema,
      // Declared as JSON with an explicit content type so the server may send an answer that is
      // already serialised (an upstream's bytes) as it is; the body is still a ChatCompletion.
      responses: { 200: c.otherResponse({ contentType: 'application/json', body: ChatCompletionSchema }) },
      metadata: meta({ auth: 'token', streaming: true }),
    },
    listModels: {
      method: 'GET',
      path: '/v1/models',
      summary: 'List the models the caller can use (Anthropic\'s list shape when `anthropic-version` is sent)',
      responses: { 200: z.union([ModelListSchema, AnthropicModelListSchema]) },
      metadata: meta({ auth: 'token', dialect: 'negotiated' }),
    },
    retrieveModel: {
      method: 'GET',
      path: '/v1/models/:model',
      summary: 'Describe one model (Anthropic\'s shape when `anthropic-version` is sent)',
      responses: { 200: z.union([ModelSchema, AnthropicModelSchema]) },
      metadata: meta({ auth: 'token', dialect: 'negotiated' }),
    },
  },
  { commonResponses, strictStatusCodes: true },
);
