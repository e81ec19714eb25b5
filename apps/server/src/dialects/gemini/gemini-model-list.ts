import { GEMINI_MODEL_PAGE, parseGizmoModel, type Endpoint, type GeminiModel, type GeminiModelList, type Model } from '@chat-relay/contract';
import { invalidRequest, type ModelFacts } from '@chat-relay/wire';

/** The Gemini methods the relay serves a model for, by what it is served for. */
const METHODS_BY_ENDPOINT: Partial<Record<Endpoint, readonly string[]>> = {
  chat: ['generateContent', 'countTokens'],
  embeddings: ['embedContent', 'batchEmbedContents'],
};

/**
 * A listed model in Google's shape, facts from the model catalogue (limits, whether it thinks,
 * its name), or undefined when the Gemini routes cannot use it (an image or speech model).
 * `version` is Google's first-version value: the relay knows no model versions.
 */
export function toGeminiModel(model: Model, facts: ModelFacts): GeminiModel | undefined {
  const methods = (model.endpoints ?? ['chat']).flatMap((endpoint) => METHODS_BY_ENDPOINT[endpoint] ?? []);
  if (methods.length === 0) return undefined;
  const displayName = parseGizmoModel(model.id) ? model.id : (facts.entry?.name ?? model.id);
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    version: '001',
    displayName,
    description: `${displayName}, served by chat-relay.`,
    ...(facts.contextWindow !== undefined && { inputTokenLimit: facts.contextWindow }),
    ...(facts.maxOutputTokens !== undefined && { outputTokenLimit: facts.maxOutputTokens }),
    supportedGenerationMethods: methods,
    ...(facts.reasoning !== undefined && { thinking: facts.reasoning }),
  };
}

/** A page token: the name the page before ended with, base64url (opaque to callers, as Google's are). */
const tokenAfter = (name: string): string => Buffer.from(name, 'utf8').toString('base64url');

function nameBefore(token: string): string {
  const name = Buffer.from(token, 'base64url').toString('utf8');
  if (!name.startsWith('models/') || tokenAfter(name) !== token) throw invalidRequest('Invalid page token.', 'pageToken', 'invalid_value');
  return name;
}

/**
 * One page of `GET /v1beta/models` (https://ai.google.dev/api/models#method:-models.list): models
 * by name, `pageSize` of them (50 when not given or 0, at most 1000), after the page `pageToken`
 * ends; `nextPageToken` only when more follow. A token keeps its place when models come or go.
 */
export function geminiModelPage(models: readonly GeminiModel[], page: { pageSize?: number; pageToken?: string }): GeminiModelList {
  const size = Math.min(page.pageSize || GEMINI_MODEL_PAGE.default, GEMINI_MODEL_PAGE.max);
  const sorted = [...models].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const after = page.pageToken ? nameBefore(page.pageToken) : undefined;
  const start = after === undefined ? 0 : sorted.findIndex((model) => model.name > after);
  const slice = start === -1 ? [] : sorted.slice(start, start + size);
  const last = slice.at(-1);
  const more = start !== -1 && start + size < sorted.length;
  return { models: slice, ...(more && last && { nextPageToken: tokenAfter(last.name) }) };
}
