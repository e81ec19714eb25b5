import type { ServerResponse } from 'node:http';
import { sendJson } from '../http-io';
import { invalidArgument, sendGeminiError } from '../gemini/gemini-error';
import type { GeminiModelEntry } from '../sim-types';

const defaultPageSize = 100;

/**
 * GET /v1beta1/publishers/google/models: Model Garden's list of Google's models (the same
 * `geminiModels` the Gemini side lists), `{publisherModels: [{name, versionId, launchStage,
 * openSourceCategory}], nextPageToken}`, paged by `pageSize` and `pageToken`
 * (https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/publishers.models/list).
 * Anthropic's models are not in it, as on Vertex.
 */
export function handleVertexModels(res: ServerResponse, query: URLSearchParams, models: readonly GeminiModelEntry[]): void {
  const size = Number(query.get('pageSize') ?? defaultPageSize);
  const token = query.get('pageToken') ?? '';
  const start = token === '' ? 0 : Number(Buffer.from(token, 'base64url').toString('utf8'));
  if (!Number.isInteger(size) || size < 0) return sendGeminiError(res, invalidArgument('Invalid value for page_size.'));
  if (!Number.isInteger(start) || start < 0) return sendGeminiError(res, invalidArgument('Invalid page token.'));
  const end = Math.min(models.length, start + (size === 0 ? defaultPageSize : size));
  const publisherModels = models.slice(start, end).map((model) => ({
    name: `publishers/google/models/${model.id}`,
    versionId: '001',
    openSourceCategory: 'PROPRIETARY',
    launchStage: 'GA',
  }));
  sendJson(res, 200, { publisherModels, ...(end < models.length ? { nextPageToken: Buffer.from(String(end)).toString('base64url') } : {}) });
}
