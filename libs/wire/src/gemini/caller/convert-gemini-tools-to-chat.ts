import { GEMINI_TO_CHAT } from '../gemini-bridge-losses';
import type { ChatCompletionRequest, GeminiFunctionDeclarationParam, GeminiToolConfigParam, GeminiToolParam, Tool } from '@chat-relay/contract';
import type { BridgeNotes } from '../../hub/bridge-notes';
import { isJsonObject } from '../../json/json-checks';
import { convertGeminiSchemaToJsonSchema, withJsonSchemaTypes } from './convert-gemini-schema-to-json-schema';

export type ChatToolFields = Pick<ChatCompletionRequest, 'tools' | 'tool_choice'>;

/** Fields of a function declaration with a Chat Completions counterpart. */
const DECLARATION_FIELDS: ReadonlySet<string> = new Set(['name', 'description', 'parameters', 'parametersJsonSchema']);

function convertDeclaration(declaration: GeminiFunctionDeclarationParam, param: string, notes: BridgeNotes): Tool {
  for (const field of Object.keys(declaration)) {
    if (!DECLARATION_FIELDS.has(field)) notes.lose(GEMINI_TO_CHAT.rules.declarationField, { field: `${param}.${field}` });
  }
  const { name, description, parameters, parametersJsonSchema } = declaration;
  const schema = isJsonObject(parametersJsonSchema) ? withJsonSchemaTypes(parametersJsonSchema) : parameters && convertGeminiSchemaToJsonSchema(parameters);
  return {
    type: 'function',
    function: { name, ...(description !== undefined ? { description } : {}), ...(schema ? { parameters: schema } : {}) },
  };
}

function convertTool(tool: GeminiToolParam, index: number, notes: BridgeNotes): Tool[] {
  for (const [field, value] of Object.entries(tool)) {
    if (field !== 'functionDeclarations' && value !== undefined && value !== null) {
      notes.refuse(`tools[${index}].${field}`, `'${field}' is a tool Google runs itself`);
    }
  }
  return (tool.functionDeclarations ?? []).map((declaration, position) =>
    convertDeclaration(declaration, `tools[${index}].functionDeclarations[${position}]`, notes),
  );
}

function convertFunctionCallingConfig(
  config: NonNullable<GeminiToolConfigParam['functionCallingConfig']>,
  notes: BridgeNotes,
): ChatCompletionRequest['tool_choice'] {
  const names = config.allowedFunctionNames ?? [];
  switch (config.mode) {
    case undefined:
    case 'MODE_UNSPECIFIED':
    case 'AUTO':
      return undefined;
    case 'NONE':
      return 'none';
    case 'VALIDATED':
      notes.lose(GEMINI_TO_CHAT.rules.validatedMode, { from: 'VALIDATED', to: 'auto' });
      return 'auto';
    case 'ANY': {
      const [only] = names;
      if (names.length === 0) return 'required';
      if (names.length === 1 && only !== undefined) return { type: 'function', function: { name: only } };
      return { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: names.map((name) => ({ type: 'function', function: { name } })) } };
    }
    default: {
      const unhandled: never = config.mode;
      throw new Error(`unhandled function calling mode ${String(unhandled)}`);
    }
  }
}

/**
 * `tools` and `toolConfig` → function tools and `tool_choice`. Documented mapping: each function
 * declaration becomes a function tool, its `parametersJsonSchema` as it is or its `parameters`
 * converted to JSON Schema (see convertGeminiSchemaToJsonSchema); functionCallingConfig mode AUTO
 * (or none) → no tool_choice, NONE → 'none', ANY → 'required', ANY with one allowed name → that
 * function, ANY with several → allowed_tools (required), VALIDATED → 'auto' (warning). Tools
 * Google runs itself (googleSearch, codeExecution, urlContext, …) are refused; with no function
 * declared, neither tools nor tool_choice is sent.
 */
export function convertGeminiToolsToChat(
  tools: readonly GeminiToolParam[] | undefined,
  toolConfig: GeminiToolConfigParam | undefined,
  notes: BridgeNotes,
): ChatToolFields {
  const converted = (tools ?? []).flatMap((tool, index) => convertTool(tool, index, notes));
  for (const field of Object.keys(toolConfig ?? {})) {
    if (field !== 'functionCallingConfig') notes.lose(GEMINI_TO_CHAT.rules.toolConfigField, { field: `toolConfig.${field}` });
  }
  const config = toolConfig?.functionCallingConfig;
  if (converted.length === 0) {
    if (config?.mode !== undefined) notes.lose(GEMINI_TO_CHAT.rules.toolConfigWithoutTools);
    return {};
  }
  const choice = config && convertFunctionCallingConfig(config, notes);
  return choice === undefined ? { tools: converted } : { tools: converted, tool_choice: choice };
}
