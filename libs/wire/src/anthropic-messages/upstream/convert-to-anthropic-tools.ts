import { CHAT_TO_ANTHROPIC } from './chat-to-anthropic-losses';
import { lossOf, type Adjustment } from '../../hub/bridge-loss';
import type { ResponseFormat, Tool, ToolChoice } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import type { AnthropicTool, AnthropicToolChoice } from '../anthropic-api';
import { isJsonResponseTool, JSON_RESPONSE_TOOL_PREFIX, jsonResponseTool } from './anthropic-json-response-tool';
import { customToolAsFunction } from '../../hub/custom-tool-as-function';

export interface ConvertToAnthropicToolsArgs {
  tools: readonly Tool[] | undefined;
  toolChoice: ToolChoice | undefined;
  parallelToolCalls: boolean | undefined;
  responseFormat: ResponseFormat | undefined;
}

export interface AnthropicToolConfig {
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  /** What was accepted but cannot be honoured exactly (documented mappings). */
  warnings: Adjustment[];
}

const EMPTY_INPUT_SCHEMA = { type: 'object', properties: {} } as const;

function checkNotReserved(name: string, param: string): void {
  if (isJsonResponseTool(name)) {
    throw invalidRequest(`Tool names starting with '${JSON_RESPONSE_TOOL_PREFIX}' are reserved on Anthropic channels.`, param);
  }
}

/** A custom tool → a function of one string (customToolAsFunction): Anthropic has no freeform tools. */
function convertTool(tool: Tool, index: number, warnings: Adjustment[]): AnthropicTool {
  const param = `tools[${index}]`;
  if (tool.type === 'custom') {
    const { name, description, parameters } = customToolAsFunction(tool);
    checkNotReserved(name, `${param}.custom.name`);
    return { name, ...(description !== undefined ? { description } : {}), input_schema: parameters };
  }
  const { name, description, parameters, strict } = tool.function;
  checkNotReserved(name, `${param}.function.name`);
  if (parameters?.['type'] !== undefined && parameters['type'] !== 'object') {
    throw invalidRequest(
      'Anthropic tools take an object as input: parameters.type must be "object".',
      `${param}.function.parameters`,
    );
  }
  // Anthropic has no strict mode on 2023-06-01: the schema is followed, not enforced.
  if (strict) warnings.push(lossOf(CHAT_TO_ANTHROPIC.rules.strictTool, { field: `${param}.function.strict` }));
  return {
    name,
    ...(description !== undefined ? { description } : {}),
    input_schema: parameters ? { ...parameters, type: 'object' } : { ...EMPTY_INPUT_SCHEMA },
  };
}

/** The caller's `tool_choice` alone (no JSON-response tool involved). */
function convertToolChoice(
  toolChoice: ToolChoice | undefined,
  tools: readonly AnthropicTool[],
  parallelToolCalls: boolean | undefined,
): AnthropicToolChoice | undefined {
  const parallel = parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (toolChoice === undefined) return parallelToolCalls === false ? { type: 'auto', ...parallel } : undefined;
  if (toolChoice === 'none') return { type: 'none' };
  if (toolChoice === 'auto') return { type: 'auto', ...parallel };
  if (toolChoice === 'required') return { type: 'any', ...parallel };
  if (toolChoice.type === 'function' || toolChoice.type === 'custom') {
    const { name } = toolChoice.type === 'function' ? toolChoice.function : toolChoice.custom;
    if (!tools.some((tool) => tool.name === name)) {
      throw invalidRequest(`tool_choice names '${name}', which is not one of the tools.`, `tool_choice.${toolChoice.type}.name`);
    }
    return { type: 'tool', name, ...parallel };
  }
  throw invalidRequest(
    `tool_choice of type '${toolChoice.type}' is not supported on Anthropic channels.`,
    'tool_choice',
    'unsupported_value',
  );
}

function checkJsonFormat(
  format: Exclude<ResponseFormat, { type: 'text' }>,
  tools: readonly AnthropicTool[],
  warnings: Adjustment[],
): void {
  if (format.type !== 'json_schema') return;
  if (format.json_schema.strict) warnings.push(lossOf(CHAT_TO_ANTHROPIC.rules.strictJsonSchema));
  const schemaType = format.json_schema.schema?.['type'];
  if (schemaType !== undefined && schemaType !== 'object') {
    throw invalidRequest(
      'On Anthropic channels a JSON schema response must describe an object (type "object").',
      'response_format.json_schema.schema',
      'unsupported_value',
    );
  }
  if (tools.some((tool) => tool.name === format.json_schema.name)) {
    throw invalidRequest(
      'response_format.json_schema.name must differ from every tool name.',
      'response_format.json_schema.name',
    );
  }
}

/**
 * `tools`, `tool_choice`, `parallel_tool_calls` and `response_format` → Anthropic `tools` and
 * `tool_choice` (a custom tool → a function of one string, see customToolAsFunction): auto →
 * auto, none → none, required → any, a named function or custom tool → tool, and
 * `parallel_tool_calls: false` → `disable_parallel_tool_use: true`. A JSON response format adds
 * the JSON-response tool (see anthropic-json-response-tool.ts) whenever the model may answer in
 * text this turn: forced alone when it has no caller tool to call (or `tool_choice: none`), or
 * beside the caller's tools with `any` (call a tool or answer in JSON) under `auto`. Under
 * `required` or a named function the model must call a caller tool, so the format waits for a
 * later turn, as on OpenAI.
 */
export function convertToAnthropicTools(args: ConvertToAnthropicToolsArgs): AnthropicToolConfig {
  const warnings: Adjustment[] = [];
  const tools = (args.tools ?? []).map((tool, index) => convertTool(tool, index, warnings));
  const { toolChoice, parallelToolCalls, responseFormat } = args;

  if (tools.length === 0 && toolChoice !== undefined && toolChoice !== 'none' && toolChoice !== 'auto') {
    throw invalidRequest('tool_choice requires tools.', 'tool_choice');
  }
  const jsonFormat = responseFormat && responseFormat.type !== 'text' ? responseFormat : undefined;
  const mayAnswerInText = toolChoice === undefined || toolChoice === 'auto' || toolChoice === 'none';

  if (!jsonFormat || !mayAnswerInText) {
    if (tools.length === 0) return { warnings };
    const choice = convertToolChoice(toolChoice, tools, parallelToolCalls);
    return { tools, ...(choice ? { tool_choice: choice } : {}), warnings };
  }

  checkJsonFormat(jsonFormat, tools, warnings);
  const jsonTool = jsonResponseTool(jsonFormat);
  if (tools.length === 0 || toolChoice === 'none') {
    // One forced call: its input is the whole answer.
    return {
      tools: [...tools, jsonTool],
      tool_choice: { type: 'tool', name: jsonTool.name, disable_parallel_tool_use: true },
      warnings,
    };
  }
  const parallel = parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  return { tools: [...tools, jsonTool], tool_choice: { type: 'any', ...parallel }, warnings };
}
