import {
  bedrockModelName,
  DEFAULT_IMAGE_MODEL,
  DEFAULT_MODERATION_MODEL,
  DEFAULT_SEARCH_MODEL,
  DEFAULT_VIDEO_MODEL,
  parseGeminiTarget,
  parseVertexAnthropicTarget,
  SunoActionSchema,
  sunoModelOf,
  type Endpoint,
  type RouteMetadata,
} from '@chat-relay/contract';
import type { Request, Response } from 'express';

/** The model a route uses when the request names none (the routes fill in the same ones). */
const DEFAULT_MODELS: Partial<Record<Endpoint, string>> = {
  images: DEFAULT_IMAGE_MODEL,
  moderations: DEFAULT_MODERATION_MODEL,
  search: DEFAULT_SEARCH_MODEL,
  videos: DEFAULT_VIDEO_MODEL,
};

/**
 * The model a relayed request asks for, known before its JSON body is parsed: Gemini's is in the
 * URL (`/v1beta/models/{model}:generateContent`), a Suno task's is its action, a JSON body's is
 * its top-level `model` as the scan found it (or as parsed, for small, multipart and compressed
 * bodies), else the route's default. Undefined when the request names none (the route's
 * validation then has its say) or the route names no model at all.
 */
export function requestedModel(req: Request, res: Response, metadata: RouteMetadata): string | undefined {
  if (!metadata.streaming) return undefined;
  const params = req.params as Record<string, string | undefined>;
  if (metadata.dialect === 'gemini') return parseGeminiTarget(params['target'] ?? '')?.model;
  // Claude's cloud APIs (cloud-messages.contract.ts): the model is in the path, under the relay's name.
  if (params['modelId'] !== undefined) return bedrockModelName(params['modelId']);
  if (params['project'] !== undefined) return parseVertexAnthropicTarget(params['target'] ?? '')?.model;
  if (metadata.endpoint === 'music') {
    const action = SunoActionSchema.safeParse(params['action']);
    return action.success ? sunoModelOf(action.data) : undefined;
  }
  const body: unknown = req.body;
  const named = res.locals.jsonScan ? res.locals.jsonScan.model : typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  if (typeof named === 'string') return named;
  return named === undefined || named === null ? DEFAULT_MODELS[metadata.endpoint ?? 'chat'] : undefined;
}
