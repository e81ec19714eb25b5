import {
  bedrockModelName,
  cloudMessagesContract,
  parseVertexAnthropicTarget,
  type AnthropicMessage,
  type AnthropicMessagesRequest,
  type AnthropicSystemParam,
  type CloudMessagesRequest,
} from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import type { Request, Response } from 'express';
import { bedrockMessagesDialect } from '../dialects/messages/anthropic-messages-dialect';
import type { PipelineDeps } from '../pipeline/run-pipeline';
import { anthropicHeaders, relayMessage } from './messages.route';
import { relayAnswer } from './relay-answer';

/**
 * The Messages request a cloud request is: the path's model, `stream` as the path says,
 * `anthropic_version` dropped (the cloud's, not Anthropic's), and the body's `anthropic_beta`
 * joined to the `anthropic-beta` header the Messages pipeline reads (Claude Code in Bedrock mode
 * sends betas in both).
 */
function messageOf(req: Request, body: CloudMessagesRequest, model: string, stream: boolean) {
  const { anthropic_version: _version, anthropic_beta: bodyBetas, ...rest } = body;
  const headers = anthropicHeaders(req);
  headers['anthropic-version'] ??= '2023-06-01';
  const betas = new Set([...(headers['anthropic-beta']?.split(',') ?? []), ...(bodyBetas ?? [])].map((beta) => beta.trim()).filter((beta) => beta !== ''));
  if (betas.size > 0) headers['anthropic-beta'] = [...betas].join(',');
  const request: AnthropicMessagesRequest = withSystemTurnsFolded({ ...rest, model, stream });
  return { body: request, headers };
}

type TextBlocks = Exclude<AnthropicSystemParam, string>;
const blocksOf = (system: AnthropicSystemParam | undefined): TextBlocks => (typeof system === 'string' ? [{ type: 'text', text: system }] : (system ?? []));

/**
 * `role: "system"` turns moved to the end of `system`, in order, blocks (and cache breakpoints)
 * as sent. Claude Code sends one on every turn (environment, deferred tools) and, in its cloud
 * modes, without the betas under which Anthropic's own API takes it among `messages`
 * (`per-turn-control-2026-07-01`, `mid-conversation-tool-changes-2026-07-01`, which it sends to
 * /v1/messages): without them Anthropic refuses `messages.N.role`.
 */
function withSystemTurnsFolded(request: AnthropicMessagesRequest): AnthropicMessagesRequest {
  const systemTurns = request.messages.flatMap((message) => (message.role === 'system' ? [message] : []));
  if (systemTurns.length === 0) return request;
  const system = [...blocksOf(request.system), ...systemTurns.flatMap((turn) => blocksOf(turn.content))];
  return { ...request, system, messages: request.messages.filter((message) => message.role !== 'system') };
}

/** The stream's headers of Bedrock's InvokeModelWithResponseStream. */
function bedrockStreamHeaders(res: Response): void {
  res.setHeader('content-type', 'application/vnd.amazon.eventstream');
  res.setHeader('x-amzn-bedrock-content-type', 'application/json');
  res.setHeader('cache-control', 'no-cache, no-transform');
  res.setHeader('x-accel-buffering', 'no');
}

/**
 * Claude's cloud APIs for Claude Code's Bedrock and Vertex modes, on the one Messages pipeline
 * (relayMessage): Bedrock's InvokeModel answers a Message and InvokeModelWithResponseStream AWS's
 * event stream; Vertex's rawPredict and streamRawPredict answer exactly what `/v1/messages` does.
 */
export function cloudMessagesRouter(deps: PipelineDeps) {
  const s = initServer();
  const vertex = async ({ params, body, req, res }: { params: { target: string }; body: CloudMessagesRequest; req: Request; res: Response }) => {
    res.setHeader('request-id', res.locals.requestId);
    // The contract's pattern matched: a model and a method.
    const target = parseVertexAnthropicTarget(params.target) ?? { model: params.target, method: 'rawPredict' };
    const result = await relayMessage(deps, req, res, messageOf(req, body, target.model, target.method === 'streamRawPredict'));
    return relayAnswer<AnthropicMessage>(res, result);
  };
  return s.router(cloudMessagesContract, {
    bedrockInvokeModel: async ({ params, body, req, res }) => {
      res.setHeader('x-amzn-requestid', res.locals.requestId);
      const result = await relayMessage(deps, req, res, messageOf(req, body, bedrockModelName(params.modelId), false));
      return relayAnswer<AnthropicMessage>(res, result);
    },
    bedrockInvokeModelWithResponseStream: async ({ params, body, req, res }) => {
      res.setHeader('x-amzn-requestid', res.locals.requestId);
      const call = { ...messageOf(req, body, bedrockModelName(params.modelId), true), dialect: bedrockMessagesDialect() };
      const result = await relayMessage(deps, req, res, call);
      if (result.kind === 'json') return relayAnswer<Uint8Array>(res, result);
      bedrockStreamHeaders(res);
      return { status: 200, body: result.body as unknown as Uint8Array };
    },
    vertexRawPredict: vertex,
    vertexRawPredictUnversioned: vertex,
  });
}
