import { initContract } from '@ts-rest/core';
import { commonResponses, meta } from './common-responses';
import { ChatCompletionRequestSchema } from './schemas/chat-completion-request.schema';
import { ChatCompletionSchema } from './schemas/chat-completion-response.schema';
import { ModelListSchema, ModelSchema } from './schemas/model.schema';

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
      summary: 'List the models the caller can use',
      responses: { 200: ModelListSchema },
      metadata: meta({ auth: 'token' }),
    },
    retrieveModel: {
      method: 'GET',
      path: '/v1/models/:model',
      summary: 'Describe one model',
      responses: { 200: ModelSchema },
      metadata: meta({ auth: 'token' }),
    },
  },
  { commonResponses, strictStatusCodes: true },
);
