import {
  ResponseFunctionCallOutputSchema,
  ResponseFunctionCallSchema,
  ResponseInputMessageSchema,
  ResponsesFunctionToolSchema,
  type ChatCompletionRequest,
  type Message,
  type ResponseFormat,
  type ResponsesRequest,
  type ToolCall,
  type ToolChoice,
  type UserContentPart,
} from '@chat-relay/contract';
import { z } from 'zod';
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

/** Between a namespace and a tool's name in the name the brain is offered (`functions__exec`). */
const NAMESPACE_SEPARATOR = '__';

/** The name a tool in `namespace` is offered to the brain under; restored on output (`ToolOrigins`). */
function offeredName(name: string, namespace: string | undefined): string {
  return namespace === undefined || namespace === '' ? name : `${namespace}${NAMESPACE_SEPARATOR}${name}`;
}

// Items and tools of OpenAI's newer tool shapes, as its OpenAPI description has them
// (CustomToolCall, CustomToolCallOutput, CustomToolParam, NamespaceToolParam; `namespace` on
// FunctionToolCall) and as Codex 0.171.0 sends them (test-fixtures/openai-responses/codex-0.171.0-*).
const CustomToolCallItemSchema = z
  .object({ type: z.literal('custom_tool_call'), call_id: z.string().min(1), name: z.string().min(1), input: z.string(), namespace: z.string().optional() })
  .passthrough();
const CustomToolCallOutputItemSchema = z
  .object({ type: z.literal('custom_tool_call_output'), call_id: z.string().min(1), output: z.union([z.string(), z.array(z.unknown())]) })
  .passthrough();
const NamespaceOfCallSchema = z.object({ namespace: z.string().optional() }).passthrough();
const CustomToolSchema = z
  .object({ type: z.literal('custom'), name: z.string().min(1), description: z.string().nullish(), format: z.unknown().optional() })
  .passthrough();
const NamespaceToolSchema = z.object({ type: z.literal('namespace'), name: z.string().min(1), tools: z.array(z.record(z.unknown())) }).passthrough();
/** Codex's `additional_tools` input item: tools offered from inside the conversation. */
const AdditionalToolsItemSchema = z.object({ type: z.literal('additional_tools'), tools: z.array(z.record(z.unknown())) }).passthrough();

function addToolCall(messages: Message[], toolCall: ToolCall): void {
  const last = messages.at(-1);
  if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), toolCall];
  else messages.push({ role: 'assistant', content: null, tool_calls: [toolCall] });
}

/**
 * Chat messages for the items: calls (function calls, custom tool calls, a namespaced one under
 * its offered name) join the assistant message before them (or start one), outputs become `tool`
 * messages; reasoning, hosted-tool and `additional_tools` items are not the brain's concern.
 */
export function messagesOfItems(items: readonly ListedItem[]): Message[] {
  const messages: Message[] = [];
  for (const item of items) {
    switch (item.type) {
      case 'message': {
        const message = messageOf(item);
        if (message) messages.push(message);
        break;
      }
      case 'function_call': {
        const call = ResponseFunctionCallSchema.safeParse(item);
        if (!call.success) break;
        const name = offeredName(call.data.name, NamespaceOfCallSchema.parse(item).namespace);
        addToolCall(messages, { id: call.data.call_id, type: 'function', function: { name, arguments: call.data.arguments } });
        break;
      }
      case 'custom_tool_call': {
        const call = CustomToolCallItemSchema.safeParse(item);
        if (!call.success) break;
        const name = offeredName(call.data.name, call.data.namespace);
        addToolCall(messages, { id: call.data.call_id, type: 'custom', custom: { name, input: call.data.input } });
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const output =
          item.type === 'function_call_output' ? ResponseFunctionCallOutputSchema.safeParse(item) : CustomToolCallOutputItemSchema.safeParse(item);
        if (output.success) messages.push({ role: 'tool', tool_call_id: output.data.call_id, content: textOfParts(output.data.output) });
        break;
      }
      default:
        break;
    }
  }
  return messages;
}

/** Where an offered tool name came from: the tool's own name and its namespace. */
export type ToolOrigins = ReadonlyMap<string, { name: string; namespace: string }>;

interface OfferedTools {
  tools: ChatTool[];
  origins: Map<string, { name: string; namespace: string }>;
}

/** A function tool in the Chat form, keys only when set so the prompt counts as on /chat/completions. */
function chatFunction(tool: z.infer<typeof ResponsesFunctionToolSchema>, name: string): ChatTool {
  const { description, parameters, strict } = tool;
  return {
    type: 'function',
    function: {
      name,
      ...(description != null ? { description } : {}),
      ...(parameters != null ? { parameters } : {}),
      ...(strict != null ? { strict } : {}),
    },
  };
}

/**
 * One tool of the request as the brain is offered it: a function, a custom (freeform) tool, or
 * the tools of a namespace under `<namespace>__<name>`. Hosted tools (web_search, tool_search …)
 * are OpenAI's to run, not the model's to call.
 */
function offerTool(raw: Record<string, unknown>, offered: OfferedTools, namespace?: string): void {
  const fn = ResponsesFunctionToolSchema.safeParse(raw);
  const custom = fn.success ? undefined : CustomToolSchema.safeParse(raw);
  const name = fn.success ? fn.data.name : custom?.success ? custom.data.name : undefined;
  if (name === undefined) {
    const inner = namespace === undefined ? NamespaceToolSchema.safeParse(raw) : undefined;
    if (inner?.success) for (const tool of inner.data.tools) offerTool(tool, offered, inner.data.name);
    return;
  }
  const offeredAs = offeredName(name, namespace);
  if (namespace !== undefined) offered.origins.set(offeredAs, { name, namespace });
  if (fn.success) {
    offered.tools.push(chatFunction(fn.data, offeredAs));
    return;
  }
  if (!custom?.success) return;
  const { description, format } = custom.data;
  offered.tools.push({
    type: 'custom',
    custom: { name: offeredAs, ...(description != null ? { description } : {}), ...(format !== undefined ? { format } : {}) },
  });
}

/** The tools of `tools`, then those of each `additional_tools` item in order, namespaces opened. */
function offeredTools(tools: ResponsesRequest['tools'], items: readonly ListedItem[]): OfferedTools {
  const offered: OfferedTools = { tools: [], origins: new Map() };
  for (const tool of tools ?? []) offerTool(tool, offered);
  for (const item of items) {
    if (item.type !== 'additional_tools') continue;
    const parsed = AdditionalToolsItemSchema.safeParse(item);
    if (parsed.success) for (const tool of parsed.data.tools) offerTool(tool, offered);
  }
  return offered;
}

function chatToolChoice(choice: ResponsesRequest['tool_choice']): ToolChoice | undefined {
  if (choice === undefined || typeof choice === 'string') return choice;
  const name = choice['name'];
  if (choice.type === 'function' && typeof name === 'string') return { type: 'function', function: { name } };
  // OpenAPI ToolChoiceCustom: `{type: 'custom', name}`, Chat's `{type: 'custom', custom: {name}}`.
  if (choice.type === 'custom' && typeof name === 'string') return { type: 'custom', custom: { name } };
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

/** The Chat-form request the brain answers, and where its namespaced tool names came from. */
export function internalRequestOf(request: ResponsesRequest, items: readonly ListedItem[]): { internal: ChatCompletionRequest; origins: ToolOrigins } {
  const instructions = request.instructions ?? '';
  const messages: Message[] = [
    ...(instructions.length > 0 ? [{ role: 'system' as const, content: instructions }] : []),
    ...messagesOfItems(items),
  ];
  const { tools, origins } = offeredTools(request.tools, items);
  const toolChoice = chatToolChoice(request.tool_choice);
  const responseFormat = responseFormatOf(request.text);
  const maxTokens = request.max_output_tokens ?? undefined;
  const parallel = request.parallel_tool_calls ?? undefined;
  const internal: ChatCompletionRequest = {
    model: request.model,
    messages,
    ...(tools.length > 0 ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(parallel !== undefined ? { parallel_tool_calls: parallel } : {}),
    ...(maxTokens !== undefined ? { max_completion_tokens: maxTokens } : {}),
    ...(responseFormat ? { response_format: responseFormat } : {}),
    ...(request['x_sim'] !== undefined ? { x_sim: request['x_sim'] } : {}),
  };
  return { internal, origins };
}

/** The Chat-form request the brain answers for a Responses request whose conversation is `items`. */
export function responsesToInternalRequest(request: ResponsesRequest, items: readonly ListedItem[]): ChatCompletionRequest {
  return internalRequestOf(request, items).internal;
}
