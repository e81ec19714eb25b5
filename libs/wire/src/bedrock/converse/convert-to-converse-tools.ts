import type { Tool, ToolChoice } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import { lossOf, type Adjustment } from '../../hub/bridge-loss';
import { customToolAsFunction } from '../../hub/custom-tool-as-function';
import { CHAT_TO_CONVERSE } from './chat-to-converse-losses';
import type { ConverseRequest, ConverseToolChoice, ConverseToolSpec } from './converse-api';

export interface ConvertToConverseToolsArgs {
  tools: readonly Tool[] | undefined;
  toolChoice: ToolChoice | undefined;
  parallelToolCalls: boolean | null | undefined;
  /** The conversation holds toolUse / toolResult blocks: Converse refuses them without a toolConfig. */
  hasToolBlocks: boolean;
}

const EMPTY_INPUT_SCHEMA = { type: 'object', properties: {} } as const;

function convertTool(tool: Tool, index: number, warnings: Adjustment[]): ConverseToolSpec {
  const param = `tools[${index}]`;
  const { name, description, parameters } = tool.type === 'custom' ? customToolAsFunction(tool) : tool.function;
  if (tool.type === 'function' && tool.function.strict) warnings.push(lossOf(CHAT_TO_CONVERSE.rules.strictTool, { field: `${param}.function.strict` }));
  if (parameters?.['type'] !== undefined && parameters['type'] !== 'object') {
    throw invalidRequest('Bedrock Converse tools take an object as input: parameters.type must be "object".', `${param}.function.parameters`);
  }
  const json: Record<string, unknown> = parameters ? { ...parameters, type: 'object' } : { ...EMPTY_INPUT_SCHEMA };
  return { toolSpec: { name, ...(description !== undefined ? { description } : {}), inputSchema: { json } } };
}

function convertToolChoice(toolChoice: ToolChoice, specs: readonly ConverseToolSpec[]): ConverseToolChoice | undefined {
  // auto is Converse's default, and the only choice some families take (Llama): not written.
  if (toolChoice === 'auto' || toolChoice === 'none') return undefined;
  if (toolChoice === 'required') return { any: {} };
  if (toolChoice.type === 'function' || toolChoice.type === 'custom') {
    const { name } = toolChoice.type === 'function' ? toolChoice.function : toolChoice.custom;
    if (!specs.some((spec) => spec.toolSpec.name === name)) {
      throw invalidRequest(`tool_choice names '${name}', which is not one of the tools.`, `tool_choice.${toolChoice.type}.name`);
    }
    return { tool: { name } };
  }
  throw invalidRequest(`tool_choice of type '${toolChoice.type}' cannot be sent to a Bedrock Converse channel.`, 'tool_choice', 'unsupported_value');
}

/**
 * `tools` and `tool_choice` → Converse `toolConfig`
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolConfiguration.html):
 * auto → no toolChoice (the default, and all some families take), required → `{any: {}}`, a named function → `{tool: {name}}` (a custom tool is
 * a function of one string, see customToolAsFunction). Converse has no `none`: the tools are left
 * out — unless the conversation holds tool calls, which Converse refuses without a toolConfig, and
 * then they go with auto; either way an adjustment says so. `parallel_tool_calls: false` cannot
 * be expressed and is dropped with an adjustment (a model may still call several tools).
 */
export function convertToConverseTools(args: ConvertToConverseToolsArgs, warnings: Adjustment[]): Pick<ConverseRequest, 'toolConfig'> {
  const { tools = [], toolChoice, parallelToolCalls, hasToolBlocks } = args;
  const specs = tools.map((tool, index) => convertTool(tool, index, warnings));
  if (specs.length === 0) {
    if (toolChoice !== undefined && toolChoice !== 'none' && toolChoice !== 'auto') throw invalidRequest('tool_choice requires tools.', 'tool_choice');
    return {};
  }
  if (parallelToolCalls === false) warnings.push(lossOf(CHAT_TO_CONVERSE.rules.parallelToolCalls));
  if (toolChoice === 'none') {
    if (!hasToolBlocks) {
      warnings.push(lossOf(CHAT_TO_CONVERSE.rules.toolChoiceNone));
      return {};
    }
    warnings.push(lossOf(CHAT_TO_CONVERSE.rules.toolChoiceNoneWithHistory, { from: 'none', to: 'auto' }));
    return { toolConfig: { tools: specs } };
  }
  const choice = toolChoice === undefined ? undefined : convertToolChoice(toolChoice, specs);
  return { toolConfig: { tools: specs, ...(choice ? { toolChoice: choice } : {}) } };
}
