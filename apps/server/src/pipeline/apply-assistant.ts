import type { ChatCompletionRequest, Message, Tool } from '@chat-relay/contract';
import type { AssistantRecord } from '../storage/types';

const toolName = (tool: Tool): string => (tool.type === 'function' ? tool.function.name : tool.custom.name);

/**
 * The assistant's tools, then the request's; a request tool with the same name replaces the
 * assistant's (SPEC §5: the request's definition wins on a name clash).
 */
export function mergeTools(assistantTools: readonly Tool[], requestTools: readonly Tool[] | undefined): Tool[] | undefined {
  if (assistantTools.length === 0) return requestTools ? [...requestTools] : undefined;
  const overridden = new Set((requestTools ?? []).map(toolName));
  return [...assistantTools.filter((tool) => !overridden.has(toolName(tool))), ...(requestTools ?? [])];
}

const unset = (value: unknown): boolean => value === undefined || value === null;

/**
 * The request as sent upstream for `<family>-gizmo-<id>`: model = family, the assistant's
 * instructions first as a system message (the caller's own system messages stay, after it),
 * tools merged, and the assistant's parameter defaults where the request sets none.
 */
export function applyAssistant(
  assistant: AssistantRecord,
  request: ChatCompletionRequest,
  family: string,
): ChatCompletionRequest {
  const messages: Message[] = assistant.instructions
    ? [{ role: 'system', content: assistant.instructions }, ...request.messages]
    : request.messages;
  const applied: ChatCompletionRequest = { ...request, model: family, messages };

  const tools = mergeTools(assistant.tools, request.tools);
  if (tools) applied.tools = tools;
  if (unset(request.temperature) && assistant.temperature !== null) applied.temperature = assistant.temperature;
  if (unset(request.top_p) && assistant.topP !== null) applied.top_p = assistant.topP;
  // max_tokens and max_completion_tokens are one limit: a caller who set either keeps theirs.
  if (unset(request.max_tokens) && unset(request.max_completion_tokens) && assistant.maxTokens !== null) {
    applied.max_tokens = assistant.maxTokens;
  }
  if (unset(request.response_format) && assistant.responseFormat !== null) {
    applied.response_format = assistant.responseFormat;
  }
  return applied;
}
