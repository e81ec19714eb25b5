import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { anthropicCommonResponses, meta } from './common-responses';
import { AnthropicMessageSchema } from './schemas/anthropic/anthropic-message.schema';
import { AnthropicMessagesRequestFieldsSchema } from './schemas/anthropic/anthropic-messages-request.schema';

const c = initContract();

/**
 * A Messages request as Claude on Amazon Bedrock and on Vertex AI take it: the model is in the
 * path, `anthropic_version` (`bedrock-2023-05-31`, `vertex-2023-10-16`) in the body, and on
 * Bedrock the betas in the body's `anthropic_beta`
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html,
 * https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude).
 * Every other field is a Messages field, kept as sent.
 */
export const CloudMessagesRequestSchema = AnthropicMessagesRequestFieldsSchema.omit({ model: true }).extend({
  anthropic_version: z.string().optional(),
  anthropic_beta: z.array(z.string()).optional(),
});
export type CloudMessagesRequest = z.infer<typeof CloudMessagesRequestSchema>;

/** Bedrock's model id, or an inference profile's id or ARN (URL-encoded by the AWS SDKs). */
export const BedrockModelParamsSchema = z.object({ modelId: z.string().min(1) });

/** The two methods of Claude on Vertex AI: `{model}:rawPredict` (JSON) and `{model}:streamRawPredict` (SSE). */
const VERTEX_ANTHROPIC_TARGET = /^(.+):(rawPredict|streamRawPredict)$/;

/** `{model}:rawPredict` or `{model}:streamRawPredict`; anything else is a 404, as Google answers it. */
export const VertexAnthropicParamsSchema = z.object({
  project: z.string(),
  location: z.string(),
  target: z.string().regex(VERTEX_ANTHROPIC_TARGET, 'names no method the relay serves'),
});

/** Bedrock's region prefixes of cross-region inference profiles (`us.anthropic.…`). */
const BEDROCK_ANTHROPIC_ID = /^(?:(?:us|us-gov|eu|apac|jp|au|ca|global)\.)?anthropic\.(.+?)(?:-v\d+(?::\d+)?)?$/;

/**
 * The relay's name of a Bedrock model id: `anthropic.claude-sonnet-4-5-20250929-v1:0`,
 * `us.anthropic.claude-opus-5-5` → `claude-sonnet-4-5-20250929`, `claude-opus-5-5` (Anthropic's own
 * ids, which the relay's channels and prices use); any other id (an application inference
 * profile's ARN) as it is, for a model mapping to name.
 */
export function bedrockModelName(modelId: string): string {
  return BEDROCK_ANTHROPIC_ID.exec(modelId)?.[1] ?? modelId;
}

/** A Vertex target's model under the relay's name (`claude-sonnet-4-5@20250929` → `claude-sonnet-4-5-20250929`, Anthropic's id) and its method. */
export function parseVertexAnthropicTarget(target: string): { model: string; method: 'rawPredict' | 'streamRawPredict' } | undefined {
  const match = VERTEX_ANTHROPIC_TARGET.exec(target);
  if (!match) return undefined;
  return { model: (match[1] ?? '').replace('@', '-'), method: match[2] === 'streamRawPredict' ? 'streamRawPredict' : 'rawPredict' };
}

const message = c.otherResponse({ contentType: 'application/json', body: AnthropicMessageSchema });

const vertexRoute = (path: string) =>
  ({
    method: 'POST',
    path,
    summary: 'Claude on Vertex AI: `{model}:rawPredict` (a Message) or `{model}:streamRawPredict` (text/event-stream), for Claude Code in Vertex mode',
    pathParams: VertexAnthropicParamsSchema,
    body: CloudMessagesRequestSchema,
    responses: { 200: message },
    metadata: meta({ auth: 'token', streaming: true, dialect: 'anthropic' }),
  }) as const;

/**
 * Claude's cloud APIs, inbound: Claude Code in its Bedrock mode (`CLAUDE_CODE_USE_BEDROCK`) and
 * Vertex mode (`CLAUDE_CODE_USE_VERTEX`), with the cloud's own auth skipped, calls the relay as it
 * would call the cloud, with the relay's token as `Authorization: Bearer`. Each is a Messages
 * request on the same pipeline as `POST /v1/messages`. Errors answer in Anthropic's shape (what
 * Vertex passes on from Claude; the Bedrock routes answer their own failures in Bedrock's).
 */
export const cloudMessagesContract = c.router(
  {
    bedrockInvokeModel: {
      method: 'POST',
      path: '/model/:modelId/invoke',
      summary: 'Claude on Amazon Bedrock, InvokeModel: a Message, for Claude Code in Bedrock mode',
      pathParams: BedrockModelParamsSchema,
      body: CloudMessagesRequestSchema,
      responses: { 200: message },
      metadata: meta({ auth: 'token', streaming: true, dialect: 'bedrock' }),
    },
    bedrockInvokeModelWithResponseStream: {
      method: 'POST',
      path: '/model/:modelId/invoke-with-response-stream',
      summary:
        "Claude on Amazon Bedrock, InvokeModelWithResponseStream: AWS's event stream (application/vnd.amazon.eventstream) of `chunk` events, each an Anthropic event",
      pathParams: BedrockModelParamsSchema,
      body: CloudMessagesRequestSchema,
      responses: { 200: c.otherResponse({ contentType: 'application/vnd.amazon.eventstream', body: c.type<Uint8Array>() }) },
      metadata: meta({ auth: 'token', streaming: true, dialect: 'bedrock' }),
    },
    // The Vertex SDKs' base URL ends in `/v1` (https://{region}-aiplatform.googleapis.com/v1); a gateway's may not.
    vertexRawPredict: vertexRoute('/v1/projects/:project/locations/:location/publishers/anthropic/models/:target'),
    vertexRawPredictUnversioned: vertexRoute('/projects/:project/locations/:location/publishers/anthropic/models/:target'),
  },
  { commonResponses: anthropicCommonResponses, strictStatusCodes: true },
);
export type CloudMessagesContract = typeof cloudMessagesContract;
