import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonResponses, meta } from './common-responses';
import {
  ResponseDeletedSchema,
  ResponseInputItemListQuerySchema,
  ResponseInputItemListSchema,
  ResponseObjectSchema,
  ResponseRetrieveQuerySchema,
} from './schemas/openai-responses/response.schema';
import { ResponsesRequestSchema } from './schemas/openai-responses/responses-request.schema';

const c = initContract();
const idParams = z.object({ id: z.string().min(1) });

/**
 * OpenAI's Responses API, inbound (the Vercel AI SDK's default, the Agents SDK, Codex): answered
 * natively by `openai` channels that have it, bridged through Chat Completions everywhere else.
 */
export const responsesContract = c.router(
  {
    createResponse: {
      method: 'POST',
      path: '/v1/responses',
      summary: 'Create a model response, OpenAI Responses API (streamed as text/event-stream when `stream` is true)',
      body: ResponsesRequestSchema,
      // Declared with an explicit content type so an upstream's own bytes may be sent as they are.
      responses: { 200: c.otherResponse({ contentType: 'application/json', body: ResponseObjectSchema }) },
      metadata: meta({ auth: 'token', streaming: true }),
    },
    retrieveResponse: {
      method: 'GET',
      path: '/v1/responses/:id',
      pathParams: idParams,
      query: ResponseRetrieveQuerySchema,
      summary: 'Retrieve a stored response',
      responses: { 200: c.otherResponse({ contentType: 'application/json', body: ResponseObjectSchema }) },
      metadata: meta({ auth: 'token' }),
    },
    deleteResponse: {
      method: 'DELETE',
      path: '/v1/responses/:id',
      pathParams: idParams,
      summary: 'Delete a stored response',
      body: c.noBody(),
      responses: { 200: c.otherResponse({ contentType: 'application/json', body: ResponseDeletedSchema }) },
      metadata: meta({ auth: 'token' }),
    },
    listResponseInputItems: {
      method: 'GET',
      path: '/v1/responses/:id/input_items',
      pathParams: idParams,
      query: ResponseInputItemListQuerySchema,
      summary: 'List the input items of a stored response',
      responses: { 200: c.otherResponse({ contentType: 'application/json', body: ResponseInputItemListSchema }) },
      metadata: meta({ auth: 'token' }),
    },
    cancelResponse: {
      method: 'POST',
      path: '/v1/responses/:id/cancel',
      pathParams: idParams,
      summary: 'Cancel a background response (only responses created with `background: true` on a channel that runs them)',
      body: c.noBody(),
      responses: { 200: c.otherResponse({ contentType: 'application/json', body: ResponseObjectSchema }) },
      metadata: meta({ auth: 'token' }),
    },
  },
  { commonResponses, strictStatusCodes: true },
);
