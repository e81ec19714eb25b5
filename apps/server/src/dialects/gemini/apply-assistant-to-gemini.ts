import type { GeminiFunctionDeclarationParam, GeminiGenerateContentRequest, GeminiGenerationConfigParam, ResponseFormat, Tool } from '@chat-relay/contract';
import type { AssistantRecord } from '../../storage/types';

/** An assistant's function tool as Gemini declares functions (its JSON Schema as parametersJsonSchema); custom tools have no counterpart. */
function toDeclaration(tool: Tool): GeminiFunctionDeclarationParam[] {
  if (tool.type !== 'function') return [];
  const { name, description, parameters } = tool.function;
  return [{ name, ...(description ? { description } : {}), ...(parameters ? { parametersJsonSchema: parameters } : {}) }];
}

/** The request's tools with the assistant's functions first in its first list of declarations (or a new one); a request function of the same name wins. */
function mergeTools(assistant: AssistantRecord, tools: GeminiGenerateContentRequest['tools']): GeminiGenerateContentRequest['tools'] {
  const requested = new Set((tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []).map((declaration) => declaration.name));
  const added = assistant.tools.flatMap(toDeclaration).filter((declaration) => !requested.has(declaration.name));
  if (added.length === 0) return tools;
  const list = tools ?? [];
  const at = list.findIndex((tool) => tool.functionDeclarations !== undefined);
  if (at < 0) return [{ functionDeclarations: added }, ...list];
  return list.map((tool, index) => (index === at ? { ...tool, functionDeclarations: [...added, ...(tool.functionDeclarations ?? [])] } : tool));
}

/** `response_format` as Gemini asks for JSON: application/json, shaped by the schema when there is one. */
function jsonAnswerOf(format: ResponseFormat): Partial<GeminiGenerationConfigParam> {
  if (format.type === 'json_object') return { responseMimeType: 'application/json' };
  if (format.type === 'json_schema') {
    const schema = format.json_schema.schema;
    return { responseMimeType: 'application/json', ...(schema ? { responseJsonSchema: schema } : {}) };
  }
  return {};
}

/** The assistant's defaults where the request's generationConfig sets none. */
function withDefaults(assistant: AssistantRecord, config: GeminiGenerationConfigParam | undefined): GeminiGenerationConfigParam | undefined {
  const applied: GeminiGenerationConfigParam = { ...config };
  if (applied.temperature === undefined && assistant.temperature !== null) applied.temperature = assistant.temperature;
  if (applied.topP === undefined && assistant.topP !== null) applied.topP = assistant.topP;
  if (applied.maxOutputTokens === undefined && assistant.maxTokens !== null) applied.maxOutputTokens = assistant.maxTokens;
  const asksFormat = applied.responseMimeType !== undefined || applied.responseSchema !== undefined || applied.responseJsonSchema !== undefined;
  if (!asksFormat && assistant.responseFormat !== null) Object.assign(applied, jsonAnswerOf(assistant.responseFormat));
  return Object.keys(applied).length > 0 ? applied : config;
}

/**
 * `<family>-gizmo-<id>` in the Gemini dialect (SPEC §5), for a `gemini` channel that takes the
 * request as it is (the model is in the URL, where the family goes): the assistant's
 * instructions first as a text part of `systemInstruction` (the caller's parts after it), its
 * function tools merged (a request function of the same name wins), and its temperature, top_p,
 * max tokens and response format where the request's generationConfig sets none.
 */
export function applyAssistantToGemini(assistant: AssistantRecord, request: GeminiGenerateContentRequest): GeminiGenerateContentRequest {
  const applied: GeminiGenerateContentRequest = { ...request };
  if (assistant.instructions) {
    const instructions = { text: assistant.instructions };
    const system = request.systemInstruction;
    applied.systemInstruction = system ? { ...system, parts: [instructions, ...system.parts] } : { parts: [instructions] };
  }
  const tools = mergeTools(assistant, request.tools);
  if (tools) applied.tools = tools;
  const generationConfig = withDefaults(assistant, request.generationConfig);
  if (generationConfig) applied.generationConfig = generationConfig;
  return applied;
}
