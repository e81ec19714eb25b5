import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { invalidRequest } from '../anthropic/anthropic-error';
import { handleCountTokens } from '../anthropic/handle-count-tokens';
import { handleAnthropicMessages, type AnthropicContext } from '../anthropic/handle-messages';
import type { IssuedToken } from './vertex-oauth';

/** The one `anthropic_version` Claude on Vertex takes (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude). */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

type VertexBody = { ok: true; body: Record<string, unknown> } | { ok: false };

/**
 * The Vertex rules of a Claude body, answered in Anthropic's error shape as Claude itself
 * answers them: the model is the URL's (a `model` field is an extra input, refused as the
 * Messages API refuses any), and `anthropic_version` must be Vertex's. Returns the body without
 * `anthropic_version`.
 */
function readVertexBody(res: ServerResponse, rawBody: string, modelInBody: 'refused' | 'required'): VertexBody {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    invalidRequest(res, 'There was an issue with your request body: it is not valid JSON.');
    return { ok: false };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    invalidRequest(res, 'Input should be a valid dictionary');
    return { ok: false };
  }
  const { anthropic_version: version, ...body } = json as Record<string, unknown>;
  if (version === undefined) {
    invalidRequest(res, 'anthropic_version: Field required');
    return { ok: false };
  }
  if (version !== VERTEX_ANTHROPIC_VERSION) {
    invalidRequest(res, `anthropic_version: Input should be '${VERTEX_ANTHROPIC_VERSION}'`);
    return { ok: false };
  }
  if (modelInBody === 'refused' && 'model' in body) {
    invalidRequest(res, 'model: Extra inputs are not permitted');
    return { ok: false };
  }
  return { ok: true, body };
}

/**
 * The headers the Anthropic side checks, as Vertex has already checked them: the service
 * account for the key (its prompt cache is its own), the API version Vertex speaks to Claude,
 * and the caller's `anthropic-beta` values (unknown ones refused as Anthropic refuses them).
 */
function anthropicHeadersFor(headers: IncomingHttpHeaders, issued: IssuedToken): IncomingHttpHeaders {
  const beta = headers['anthropic-beta'];
  return { 'x-api-key': issued.clientEmail, 'anthropic-version': '2023-06-01', ...(beta !== undefined ? { 'anthropic-beta': beta } : {}) };
}

/** `…/publishers/anthropic/models/{model}:rawPredict` and `:streamRawPredict`: the Messages API, streamed when the body says `stream: true`. */
export async function handleVertexClaude(
  call: { model: string; headers: IncomingHttpHeaders; issued: IssuedToken },
  res: ServerResponse,
  rawBody: string,
  context: AnthropicContext,
): Promise<void> {
  const read = readVertexBody(res, rawBody, 'refused');
  if (!read.ok) return;
  const messages = JSON.stringify({ model: call.model, ...read.body });
  await handleAnthropicMessages(anthropicHeadersFor(call.headers, call.issued), res, messages, { ...context, acceptedKeys: undefined });
}

/**
 * `…/publishers/anthropic/models/count-tokens:rawPredict`: Anthropic's count_tokens, the model
 * named in the body (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/count-tokens).
 * A Vertex id's `@` date is Anthropic's `-` date (`claude-sonnet-4-5@20250929` is `claude-sonnet-4-5-20250929`).
 */
export function handleVertexClaudeCountTokens(
  call: { headers: IncomingHttpHeaders; issued: IssuedToken },
  res: ServerResponse,
  rawBody: string,
  context: AnthropicContext,
): void {
  const read = readVertexBody(res, rawBody, 'required');
  if (!read.ok) return;
  const model = read.body['model'];
  const body = typeof model === 'string' ? { ...read.body, model: model.replace('@', '-') } : read.body;
  handleCountTokens(anthropicHeadersFor(call.headers, call.issued), res, JSON.stringify(body), { ...context, acceptedKeys: undefined });
}
