import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { anthropicCommonResponses, meta } from './common-responses';
import {
  AnthropicCountTokensRequestSchema,
  AnthropicCountTokensResponseSchema,
} from './schemas/anthropic/anthropic-count-tokens.schema';
import { AnthropicMessageSchema } from './schemas/anthropic/anthropic-message.schema';
import { AnthropicMessagesRequestSchema } from './schemas/anthropic/anthropic-messages-request.schema';

const c = initContract();

/** The Anthropic SDK's beta namespace (`client.beta.messages`) calls the same paths with `?beta=true`. */
export const AnthropicBetaQuerySchema = z.object({ beta: z.string().optional() });

/**
 * The Anthropic Messages API, inbound: Claude Code and the Anthropic SDKs call the relay as they
 * would call Anthropic. Errors answer in Anthropic's shape (`dialect: 'anthropic'`).
 */
export const messagesContract = c.router(
  {
    createMessage: {
      method: 'POST',
      path: '/v1/messages',
      summary: 'Create a Message, Anthropic Messages API (streamed as text/event-stream when `stream` is true)',
      query: AnthropicBetaQuerySchema,
      body: AnthropicMessagesRequestSchema,
      // Declared as JSON with an explicit content type so the server may send an answer that is
      // already serialised (an upstream's bytes) as it is; the body is still a Message.
      responses: { 200: c.otherResponse({ contentType: 'application/json', body: AnthropicMessageSchema }) },
      metadata: meta({ auth: 'token', streaming: true, dialect: 'anthropic' }),
    },
    countMessageTokens: {
      method: 'POST',
      path: '/v1/messages/count_tokens',
      summary: 'Count the input tokens of a Messages request, Anthropic Messages API',
      query: AnthropicBetaQuerySchema,
      body: AnthropicCountTokensRequestSchema,
      responses: { 200: AnthropicCountTokensResponseSchema },
      // Never streamed: `streaming` here means "a relayed request", which gets its usage-log row
      // (see RouteMetadata.streaming).
      metadata: meta({ auth: 'token', streaming: true, dialect: 'anthropic' }),
    },
  },
  { commonResponses: anthropicCommonResponses, strictStatusCodes: true },
);
