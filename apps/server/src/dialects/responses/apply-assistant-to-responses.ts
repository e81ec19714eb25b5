import type { ResponsesRequest, ResponsesTool, Tool } from '@chat-relay/contract';
import type { AssistantRecord } from '../../storage/types';

/** An assistant's function tool as the Responses API declares tools (flat, no `function` wrapper). */
function toResponsesTool(tool: Tool): ResponsesTool | undefined {
  if (tool.type !== 'function') return undefined;
  const { name, description, parameters, strict } = tool.function;
  return { type: 'function', name, description: description ?? null, parameters: parameters ?? null, strict: strict ?? null };
}

const toolName = (tool: ResponsesTool): unknown => ('name' in tool ? tool.name : undefined);

/**
 * `<family>-gizmo-<id>` in the Responses dialect (SPEC §5), for a channel that takes the request
 * as it is: model = family, the assistant's instructions before the caller's `instructions`, its
 * function tools merged (a request tool of the same name wins), its temperature, top_p and
 * max_tokens (as max_output_tokens) where the request sets none, and its response format as
 * `text.format` when the request asks for none.
 */
export function applyAssistantToResponses(assistant: AssistantRecord, request: ResponsesRequest, family: string): ResponsesRequest {
  const applied: ResponsesRequest = { ...request, model: family };
  if (assistant.instructions) {
    applied.instructions = request.instructions ? `${assistant.instructions}\n\n${request.instructions}` : assistant.instructions;
  }
  const assistantTools = assistant.tools.map(toResponsesTool).filter((tool): tool is ResponsesTool => tool !== undefined);
  if (assistantTools.length > 0) {
    const overridden = new Set((request.tools ?? []).map(toolName));
    applied.tools = [...assistantTools.filter((tool) => !overridden.has(toolName(tool))), ...(request.tools ?? [])];
  }
  if (request.temperature == null && assistant.temperature !== null) applied.temperature = assistant.temperature;
  if (request.top_p == null && assistant.topP !== null) applied.top_p = assistant.topP;
  if (request.max_output_tokens == null && assistant.maxTokens !== null) applied.max_output_tokens = assistant.maxTokens;
  const format = assistant.responseFormat;
  if (request.text?.format === undefined && format && format.type !== 'text') {
    applied.text = {
      ...request.text,
      format:
        format.type === 'json_schema'
          ? {
              type: 'json_schema',
              name: format.json_schema.name,
              ...(format.json_schema.description !== undefined ? { description: format.json_schema.description } : {}),
              schema: format.json_schema.schema ?? {},
              ...(format.json_schema.strict != null ? { strict: format.json_schema.strict } : {}),
            }
          : { type: 'json_object' },
    };
  }
  return applied;
}
