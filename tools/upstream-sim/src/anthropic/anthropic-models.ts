import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { sendJson } from '../http-io';
import type { AnthropicModelInfo, AnthropicModelList } from './anthropic-api';
import { anthropicError, invalidRequest, sendAnthropicError } from './anthropic-error';
import { checkAnthropicHeaders } from './anthropic-headers';
import type { AnthropicContext } from './handle-messages';

/** Claude ids and aliases the Anthropic side knows unless `anthropicModels` says otherwise. */
export const defaultAnthropicModels: readonly string[] = [
  'claude-opus-4-6',
  'claude-opus-4-5',
  'claude-opus-4-5-20251101',
  'claude-opus-4-1',
  'claude-opus-4-1-20250805',
  'claude-opus-4-0',
  'claude-opus-4-20250514',
  'claude-sonnet-4-5',
  'claude-sonnet-4-5-20250929',
  'claude-sonnet-4-0',
  'claude-sonnet-4-20250514',
  'claude-haiku-4-5',
  'claude-haiku-4-5-20251001',
  'claude-3-7-sonnet-latest',
  'claude-3-7-sonnet-20250219',
  'claude-3-5-haiku-latest',
  'claude-3-5-haiku-20241022',
];

/** A date-stamped id was released that day; an alias gets a fixed date, so answers never change. */
function createdAt(id: string): string {
  const stamp = /-(\d{4})(\d{2})(\d{2})$/.exec(id);
  return stamp ? `${stamp[1]}-${stamp[2]}-${stamp[3]}T00:00:00Z` : '2025-01-01T00:00:00Z';
}

/** `claude-sonnet-4-5-20250929` → `Claude Sonnet 4.5`: words capitalised, version digits dotted, no date. */
export function displayNameOf(id: string): string {
  const words = id.replace(/-\d{8}$/, '').split('-');
  const parts: string[] = [];
  for (const word of words) {
    const previous = parts[parts.length - 1];
    if (/^\d+$/.test(word) && previous !== undefined && /^\d+(\.\d+)*$/.test(previous)) parts[parts.length - 1] = `${previous}.${word}`;
    else parts.push(word.charAt(0).toUpperCase() + word.slice(1));
  }
  return parts.join(' ');
}

function modelInfo(id: string): AnthropicModelInfo {
  return { type: 'model', id, display_name: displayNameOf(id), created_at: createdAt(id) };
}

/** The [first, end) window of one page: after `after_id`, or the `limit` ids before `before_id`. */
function pageWindow(models: readonly string[], query: URLSearchParams, limit: number): [number, number] {
  const beforeId = query.get('before_id');
  if (beforeId !== null) {
    const before = models.indexOf(beforeId);
    const end = before >= 0 ? before : models.length;
    return [Math.max(0, end - limit), end];
  }
  const first = models.indexOf(query.get('after_id') ?? '') + 1;
  return [first, Math.min(models.length, first + limit)];
}

/** One page of `limit` (1–1000, default 20) models; an unknown cursor id counts from the list's end. */
function modelPage(models: readonly string[], query: URLSearchParams): AnthropicModelList | string {
  const limit = Number(query.get('limit') ?? '20');
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return 'limit: Input should be an integer between 1 and 1000';
  const [first, end] = pageWindow(models, query, limit);
  const page = models.slice(first, end);
  const hasMore = query.get('before_id') !== null ? first > 0 : end < models.length;
  return { data: page.map(modelInfo), has_more: hasMore, first_id: page[0] ?? null, last_id: page[page.length - 1] ?? null };
}

/** GET /v1/models and GET /v1/models/{id} in Anthropic's shape (`anthropic-version` sent). */
export function handleAnthropicModels(
  request: { headers: IncomingHttpHeaders; modelId: string | undefined; query: URLSearchParams },
  res: ServerResponse,
  context: AnthropicContext,
): void {
  if (!checkAnthropicHeaders(request.headers, res, context)) return;
  const { modelId } = request;
  if (modelId === undefined) {
    const page = modelPage(context.anthropicModels, request.query);
    if (typeof page === 'string') return invalidRequest(res, page);
    sendJson(res, 200, page);
    return;
  }
  if (!context.anthropicModels.includes(modelId)) {
    sendAnthropicError(res, 404, anthropicError('not_found_error', `model: ${modelId}`));
    return;
  }
  sendJson(res, 200, modelInfo(modelId));
}
