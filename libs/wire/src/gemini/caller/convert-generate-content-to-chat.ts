import { GEMINI_TO_CHAT } from '../gemini-bridge-losses';
import type { ChatCompletionRequest, GeminiGenerateContentRequest, GeminiGenerationConfigParam } from '@chat-relay/contract';
import type { RelayError } from '../../errors/relay-error';
import type { Adjustment } from '../../hub/bridge-loss';
import { BridgeNotes } from '../../hub/bridge-notes';
import { isJsonObject } from '../../json/json-checks';
import { MAX_CHAT_STOP_SEQUENCES } from '../../anthropic-messages/caller/convert-messages-to-chat';
import { LOW_EFFORT_BUDGET_BELOW, MEDIUM_EFFORT_BUDGET_BELOW } from '../../anthropic-messages/upstream/map-thinking-to-reasoning-effort';
import { convertGeminiContentsToChat } from './convert-gemini-contents-to-chat';
import { convertGeminiSchemaToJsonSchema, withJsonSchemaTypes } from './convert-gemini-schema-to-json-schema';
import { convertGeminiToolsToChat } from './convert-gemini-tools-to-chat';

/** The name a Gemini response schema goes under (Chat Completions wants one). */
export const BRIDGED_GEMINI_SCHEMA_NAME = 'response';

export interface ConvertGenerateContentArgs {
  body: GeminiGenerateContentRequest;
  /** The model named in the path. */
  model: string;
  /** `:streamGenerateContent`. */
  stream: boolean;
}

export interface ConvertedGenerateContent {
  /** The hub request, converted as well as possible even when `nativeOnly` is set (for cost estimates). */
  request: ChatCompletionRequest;
  /** What was accepted but is not honoured exactly, for the log. */
  warnings: Adjustment[];
  /** A 400 naming the first field only a Gemini channel can serve: the relay must not bridge then. */
  nativeOnly: RelayError | undefined;
  /** `thinkingConfig.includeThoughts`: a bridged answer's reasoning goes back as thought parts. */
  includeThoughts: boolean;
}

const TOP_LEVEL_FIELDS: ReadonlySet<string> = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig']);

const GENERATION_FIELDS: ReadonlySet<string> = new Set([
  'temperature',
  'topP',
  'topK',
  'candidateCount',
  'maxOutputTokens',
  'stopSequences',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'thinkingConfig',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseLogprobs',
  'logprobs',
]);

function noteTopLevel(body: GeminiGenerateContentRequest, notes: BridgeNotes): void {
  for (const [field, value] of Object.entries(body)) {
    if (TOP_LEVEL_FIELDS.has(field) || value === undefined || value === null) continue;
    if (field === 'cachedContent') notes.refuse(field, 'the cached content is stored at Google');
    else if (field === 'safetySettings') notes.lose(GEMINI_TO_CHAT.rules.safetySettings);
    else notes.lose(GEMINI_TO_CHAT.rules.otherField, { field });
  }
}

function responseFormatOf(config: GeminiGenerationConfigParam, notes: BridgeNotes): Pick<ChatCompletionRequest, 'response_format'> {
  const mimeType = config.responseMimeType;
  const jsonSchema = isJsonObject(config.responseJsonSchema) ? withJsonSchemaTypes(config.responseJsonSchema) : undefined;
  const schema = jsonSchema ?? (config.responseSchema && convertGeminiSchemaToJsonSchema(config.responseSchema));
  if (mimeType === undefined || mimeType === 'text/plain') {
    if (schema) notes.lose(GEMINI_TO_CHAT.rules.schemaWithoutJson, { field: config.responseJsonSchema !== undefined ? 'generationConfig.responseJsonSchema' : 'generationConfig.responseSchema' });
    return {};
  }
  if (mimeType !== 'application/json') {
    notes.refuse('generationConfig.responseMimeType', `answers as ${mimeType} have no Chat Completions counterpart`);
    return {};
  }
  if (!schema) return { response_format: { type: 'json_object' } };
  return { response_format: { type: 'json_schema', json_schema: { name: BRIDGED_GEMINI_SCHEMA_NAME, schema } } };
}

/** thinkingLevel as it is; a positive budget by size (as Anthropic budgets are read); 0 (off) and -1 (dynamic): none sent. */
function reasoningEffortOf(thinking: GeminiGenerationConfigParam['thinkingConfig']): string | undefined {
  if (thinking?.thinkingLevel) return thinking.thinkingLevel.toLowerCase();
  const budget = thinking?.thinkingBudget;
  if (budget === undefined || budget <= 0) return undefined;
  if (budget < LOW_EFFORT_BUDGET_BELOW) return 'low';
  return budget < MEDIUM_EFFORT_BUDGET_BELOW ? 'medium' : 'high';
}

function convertGenerationConfig(config: GeminiGenerationConfigParam | undefined, notes: BridgeNotes): Partial<ChatCompletionRequest> {
  if (!config) return {};
  for (const [field, value] of Object.entries(config)) {
    if (!GENERATION_FIELDS.has(field) && value !== undefined && value !== null) {
      notes.lose(GEMINI_TO_CHAT.rules.generationField, { field: `generationConfig.${field}` });
    }
  }
  const modalities = config.responseModalities ?? [];
  const other = modalities.find((modality) => modality.toUpperCase() !== 'TEXT');
  if (other !== undefined) notes.refuse('generationConfig.responseModalities', `${other} answers have no Chat Completions counterpart`);
  if (config.responseLogprobs === true || config.logprobs !== undefined) {
    notes.lose(GEMINI_TO_CHAT.rules.logprobs);
  }
  const stop = config.stopSequences ?? [];
  if (stop.length > MAX_CHAT_STOP_SEQUENCES) {
    notes.refuse('generationConfig.stopSequences', `Chat Completions takes at most ${MAX_CHAT_STOP_SEQUENCES} stop sequences, not ${stop.length}`);
  }
  const effort = reasoningEffortOf(config.thinkingConfig);
  const chat: Partial<ChatCompletionRequest> = {
    ...(config.maxOutputTokens !== undefined ? { max_completion_tokens: config.maxOutputTokens } : {}),
    ...(stop.length > 0 ? { stop: stop.slice(0, MAX_CHAT_STOP_SEQUENCES) } : {}),
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.topP !== undefined ? { top_p: config.topP } : {}),
    ...(config.topK !== undefined ? { top_k: config.topK } : {}),
    ...(config.candidateCount !== undefined && config.candidateCount > 1 ? { n: config.candidateCount } : {}),
    ...(config.seed !== undefined ? { seed: config.seed } : {}),
    ...(config.presencePenalty !== undefined ? { presence_penalty: config.presencePenalty } : {}),
    ...(config.frequencyPenalty !== undefined ? { frequency_penalty: config.frequencyPenalty } : {}),
    ...(effort !== undefined ? { reasoning_effort: effort } : {}),
    ...responseFormatOf(config, notes),
  };
  return chat;
}

/**
 * A generateContent request → the hub's Chat Completions request, for a channel that is not
 * Gemini. Documented mappings (each not exact one is also a warning when it applies):
 *   the path's model → model; systemInstruction and contents → see convertGeminiContentsToChat;
 *   tools / toolConfig → see convertGeminiToolsToChat; generationConfig: maxOutputTokens →
 *   max_completion_tokens, stopSequences → stop (more than 4: Gemini only), temperature, topP →
 *   top_p, topK → top_k, candidateCount > 1 → n, seed, presencePenalty → presence_penalty,
 *   frequencyPenalty → frequency_penalty, thinkingConfig → reasoning_effort (thinkingLevel as
 *   named; thinkingBudget below 4096 → low, below 16384 → medium, else high; 0 and -1 → none
 *   sent), responseMimeType application/json → response_format json_object, or json_schema
 *   named `response` with responseJsonSchema or the converted responseSchema;
 *   `:streamGenerateContent` → stream with stream_options.include_usage, whose usage chunk the
 *   bridge needs. safetySettings are not sent (warning); cachedContent, answers other than text
 *   or JSON, and tools Google runs itself are Gemini's only; any other field is not sent, and
 *   named in a warning.
 */
export function convertGenerateContentToChat({ body, model, stream }: ConvertGenerateContentArgs): ConvertedGenerateContent {
  const notes = new BridgeNotes((param, why) => `'${param}' can only be served by a Gemini channel: ${why}.`);
  noteTopLevel(body, notes);
  const messages = convertGeminiContentsToChat(body.systemInstruction, body.contents, notes);
  const request: ChatCompletionRequest = {
    model,
    messages,
    ...convertGeminiToolsToChat(body.tools, body.toolConfig, notes),
    ...convertGenerationConfig(body.generationConfig, notes),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
  const includeThoughts = body.generationConfig?.thinkingConfig?.includeThoughts === true;
  return { request, warnings: notes.warnings, nativeOnly: notes.nativeOnly, includeThoughts };
}
