import { AnthropicInputSchemaSchema, type AnthropicCustomTool, type AnthropicMessagesRequest, type AnthropicTool, type Tool } from '@chat-relay/contract';
import type { AssistantRecord } from '../../storage/types';

/** An assistant's function tool as Anthropic declares tools; custom (free-form) tools have no counterpart. */
function toAnthropicTool(tool: Tool): AnthropicCustomTool | undefined {
  if (tool.type !== 'function') return undefined;
  const { name, description, parameters } = tool.function;
  const schema = AnthropicInputSchemaSchema.safeParse(parameters);
  return {
    name,
    ...(description ? { description } : {}),
    input_schema: schema.success ? schema.data : { type: 'object', properties: {} },
  };
}

const toolName = (tool: AnthropicTool): unknown => tool.name;

/**
 * `<family>-gizmo-<id>` in the Messages dialect (SPEC §5), for a channel that takes the request
 * as it is: model = family, the assistant's instructions first in `system` (the caller's system
 * blocks, with their `cache_control`, after it), its tools merged (a request tool of the same name
 * wins), its temperature (capped at Anthropic's maximum of 1; the assistant's default, not the
 * caller's value) and top_p where the request sets none. `max_tokens` is required in this
 * dialect, so the caller's always stands; `response_format` has no Messages counterpart and is
 * not applied here (the hub's bridge applies it for other channels).
 */
export function applyAssistantToMessages(
  assistant: AssistantRecord,
  request: AnthropicMessagesRequest,
  family: string,
): AnthropicMessagesRequest {
  const applied: AnthropicMessagesRequest = { ...request, model: family };
  if (assistant.instructions) {
    const instructions = { type: 'text' as const, text: assistant.instructions };
    if (request.system === undefined) applied.system = assistant.instructions;
    else if (typeof request.system === 'string') applied.system = request.system === '' ? assistant.instructions : [instructions, { type: 'text', text: request.system }];
    else applied.system = [instructions, ...request.system];
  }
  const assistantTools = assistant.tools.map(toAnthropicTool).filter((tool): tool is AnthropicCustomTool => tool !== undefined);
  if (assistantTools.length > 0) {
    const overridden = new Set((request.tools ?? []).map(toolName));
    applied.tools = [...assistantTools.filter((tool) => !overridden.has(toolName(tool))), ...(request.tools ?? [])];
  }
  if (request.temperature === undefined && assistant.temperature !== null) applied.temperature = Math.min(assistant.temperature, 1);
  if (request.top_p === undefined && assistant.topP !== null) applied.top_p = assistant.topP;
  return applied;
}
