import type { ServerResponse } from 'node:http';
import { sendJson } from '../http-io';
import type { GeminiModelEntry } from '../sim-types';
import { geminiError, invalidArgument, sendGeminiError } from './gemini-error';

/** The models Gemini's `GET /v1beta/models` lists unless `geminiModels` says otherwise. */
export const defaultGeminiModels: readonly GeminiModelEntry[] = [
  { id: 'gemini-2.5-flash', supportedGenerationMethods: ['generateContent', 'countTokens'] },
  { id: 'gemini-2.5-pro', supportedGenerationMethods: ['generateContent', 'countTokens'] },
  { id: 'gemini-2.5-flash-lite', supportedGenerationMethods: ['generateContent', 'countTokens'] },
  { id: 'gemini-2.5-flash-image', supportedGenerationMethods: ['generateContent'] },
  { id: 'text-embedding-004', supportedGenerationMethods: ['embedContent', 'batchEmbedContents'] },
  { id: 'gemini-embedding-001', supportedGenerationMethods: ['embedContent', 'batchEmbedContents'] },
  { id: 'imagen-4.0-generate-001', supportedGenerationMethods: ['predict'] },
];

const defaultPageSize = 50;
const maxPageSize = 1000;

/** `gemini-2.5-flash-image` → `Gemini 2.5 Flash Image`. */
function displayNameOf(id: string): string {
  return id
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** Token limits by what the model does: chat, embeddings, or images from a prompt. */
function limitsOf(entry: GeminiModelEntry): { inputTokenLimit: number; outputTokenLimit: number } {
  const methods = entry.supportedGenerationMethods;
  if (methods.includes('generateContent')) return { inputTokenLimit: 1_048_576, outputTokenLimit: 65_536 };
  if (methods.includes('embedContent')) return { inputTokenLimit: 2048, outputTokenLimit: 1 };
  return { inputTokenLimit: 480, outputTokenLimit: 8192 };
}

function modelResource(entry: GeminiModelEntry): Record<string, unknown> {
  return {
    name: `models/${entry.id}`,
    version: '001',
    displayName: displayNameOf(entry.id),
    ...limitsOf(entry),
    supportedGenerationMethods: entry.supportedGenerationMethods,
  };
}

/** `pageToken` is the base64url of the next index. */
function pageStart(token: string | null): number | undefined {
  if (token === null || token === '') return 0;
  const start = Number(Buffer.from(token, 'base64url').toString('utf8'));
  return Number.isInteger(start) && start >= 0 ? start : undefined;
}

/** GET /v1beta/models (`pageSize` 1–1000, default 50; `pageToken`) and GET /v1beta/models/{model}. */
export function handleGeminiModels(
  res: ServerResponse,
  modelId: string | undefined,
  query: URLSearchParams,
  models: readonly GeminiModelEntry[],
): void {
  if (modelId !== undefined) {
    const entry = models.find((model) => model.id === modelId);
    if (entry) return sendJson(res, 200, modelResource(entry));
    return sendGeminiError(res, geminiError(404, 'NOT_FOUND', `models/${modelId} is not found for API version v1beta.`));
  }
  const size = Number(query.get('pageSize') ?? defaultPageSize);
  const start = pageStart(query.get('pageToken'));
  if (!Number.isInteger(size) || size < 0) {
    return sendGeminiError(res, invalidArgument('* ListModelsRequest.page_size: must be a non-negative integer.'));
  }
  if (start === undefined) return sendGeminiError(res, invalidArgument('Invalid page token.'));
  const end = Math.min(models.length, start + (size === 0 ? defaultPageSize : Math.min(size, maxPageSize)));
  const page = models.slice(start, end).map(modelResource);
  const next = end < models.length ? { nextPageToken: Buffer.from(String(end)).toString('base64url') } : {};
  sendJson(res, 200, { models: page, ...next });
}
