import {
  ResponseFunctionCallOutputSchema,
  ResponseFunctionCallSchema,
  ResponseInputMessageSchema,
  ResponsesFunctionToolSchema,
  type ChatCompletionRequest,
  type Message,
  type ResponseFormat,
  type ResponsesRequest,
  type ToolChoice,
  type UserContentPart,
} from '@chat-relay/contract';
import { textOfParts } from './input-items';
import type { ListedItem } from './responses-wire';

// The simulator decides every answer on the OpenAI Chat form (decide-answer.ts); this maps a
// Responses request — its conversation already as items — onto it, so the same conversation
// gets the same calls, call ids, text and token counts on /chat/completions and /responses.

type ChatTool = NonNullable<ChatCompletionRequest['tools']>[number];

function userParts(content: unknown): UserContentPart[] | string {
  if (!Array.isArray(content)) return textOfParts(content);
  return content.flatMap((part): UserContentPart[] => {
    if (typeof part !== 'object' || part === null) return [];
    const record = part as Record<string, unknown>;
    const text = record['text'];
    if (record['type'] === 'input_text' && typeof text === 'string') return [{ type: 'text', text }];
    if (record['type'] === 'input_image') {
      const url = record['image_url'] ?? (typeof record['file_id'] === 'string' ? `file:${record['file_id']}` : undefined);
      return typeof url === 'string' ? [{ type: 'image_url', image_url: { url } }] : [];
    }
    if (record['type'] === 'input_file') {
      const file: Record<string, string> = {};
      for (const key of ['file_data', 'file_id', 'filename']) {
        const value = record[key];
        if (typeof value === 'string') file[key] = value;
      }
      return [{ type: 'file', file }];
    }
    return [];
  });
}

function messageOf(item: ListedItem): Message | undefined {
  const parsed = ResponseInputMessageSchema.safeParse(item);
  if (!parsed.success) return undefined;
  const { role, content } = parsed.data;
  switch (role) {
    case 'user':
      return { role, content: userParts(content) };
    case 'system':
    case 'developer':
      return { role, content: textOfParts(content) };
    case 'assistant': {
      const text = textOfParts(content);
      return { role, content: text.length > 0 ? text : null };
    }
    default: {
      const unexpected: never = role;
      throw new Error(`unhandled role ${String(unexpected)}`);
    }
  }
}

/**
 * Chat messages for the items: calls join the assistant message before them (or start one),
 * outputs become `tool` messages; reasoning and hosted-tool items are not the brain's concern.
 */
export function messagesOfItems(items: readonly ListedItem[]): Message[] {
  const messages: Message[] = [];
  for (const item of items) {
    if (item.type === 'message') {
      const message = messageOf(item);
      if (message) messages.push(message);
      continue;
    }
    const call = ResponseFunctionCallSchema.safeParse(item);
    if (call.success) {
      const toolCall = { id: call.data.call_id, type: 'function' as const, function: { name: call.data.name, arguments: call.data.arguments } };
      const last = messages.at(-1);
      if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), toolCall];
      else messages.push({ role: 'assistant', content: null, tool_calls: [toolCall] });
      continue;
    }
    const output = ResponseFunctionCallOutputSchema.safeParse(item);
    if (output.success) messages.push({ role: 'tool', tool_call_id: output.data.call_id, content: textOfParts(output.data.output) });
  }
  return messages;
}

/** Function tools in the Chat form, keys only when set so the prompt counts as on /chat/completions. */
function chatTools(tools: ResponsesRequest['tools']): ChatTool[] | undefined {
  const functions = (tools ?? []).flatMap((tool) => {
    const parsed = ResponsesFunctionToolSchema.safeParse(tool);
    return parsed.success ? [parsed.data] : [];
  });
  if (functions.length === 0) return undefined;
  return functions.map(({ name, description, parameters, strict }) => ({
    type: 'function',
    function: {
      name,
      ...(description != null ? { description } : {}),
      ...(parameters != null ? { parameters } : {}),
      ...(strict != null ? { strict } : {}),
    },
  }));
}

function chatToolChoice(choice: ResponsesRequest['tool_choice']): ToolChoice | undefined {
  if (choice === undefined || typeof choice === 'string') return choice;
  const name = choice['name'];
  if (choice.type === 'function' && typeof name === 'string') return { type: 'function', function: { name } };
  const mode = choice['mode'];
  const tools = choice['tools'];
  if (choice.type === 'allowed_tools' && (mode === 'auto' || mode === 'required') && Array.isArray(tools)) {
    return { type: 'allowed_tools', allowed_tools: { mode, tools: tools as Record<string, unknown>[] } };
  }
  return undefined;
}

function responseFormatOf(text: ResponsesRequest['text']): ResponseFormat | undefined {
  const format = text?.format;
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  return { type: 'json_schema', json_schema: { name: format.name, schema: format.schema } };
}

/** The Chat-form request the brain answers for a Responses request whose conversation is `items`. */
export function responsesToInternalRequest(request: ResponsesRequest, items: readonly ListedItem[]): ChatCompletionRequest {
  const instructions = request.instructions ?? '';
  const messages: Message[] = [
    ...(instructions.length > 0 ? [{ role: 'system' as const, content: instructions }] : []),
    ...messagesOfItems(items),
  ];
  const tools = chatTools(request.tools);
  const toolChoice = chatToolChoice(request.tool_choice);
  const responseFormat = responseFormatOf(request.text);
  const maxTokens = request.max_output_tokens ?? undefined;
  const parallel = request.parallel_tool_calls ?? undefined;
  return {
    model: request.model,
    messages,
    ...(tools ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(parallel !== undefined ? { parallel_tool_calls: parallel } : {}),
    ...(maxTokens !== undefined ? { max_completion_tokens: maxTokens } : {}),
    ...(responseFormat ? { response_format: responseFormat } : {}),
    ...(request['x_sim'] !== undefined ? { x_sim: request['x_sim'] } : {}),
  };
}
