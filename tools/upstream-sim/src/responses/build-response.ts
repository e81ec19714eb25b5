import type { ResponsesRequest } from '@chat-relay/contract';
import type { AnswerContent } from '../build-chat-completion';
import type { ToolCall } from '@chat-relay/contract';
import { servedTier } from './hosted-tools';
import { newId } from './input-items';
import type { ToolOrigins } from './to-internal-request';
import type { CustomToolCallItem, FunctionCallItem, HostedCallItem, OutputItem, OutputMessageItem, ResponseBody, ResponseStatus, ResponseUsageBody } from './responses-wire';

/** What one response is: its id and clock, and the request whose settings it echoes. */
export interface ResponseMeta {
  id: string;
  createdAt: number;
  request: ResponsesRequest;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Strict function schemas: every property required and no others allowed (what OpenAI checks
 * before defaulting `strict` to true).
 */
function isStrictCompatible(parameters: unknown): boolean {
  if (!isRecord(parameters)) return false;
  const properties = isRecord(parameters['properties']) ? Object.keys(parameters['properties']) : [];
  const required = Array.isArray(parameters['required']) ? parameters['required'] : [];
  return parameters['additionalProperties'] !== true && properties.every((name) => required.includes(name));
}

/**
 * A tool as OpenAI echoes it: function tools with every field, `strict` defaulting to true when
 * the schema allows it (then `additionalProperties: false` is written out), false otherwise.
 */
function echoedTool(tool: NonNullable<ResponsesRequest['tools']>[number]): unknown {
  if (tool.type !== 'function') return tool;
  const parameters = isRecord(tool['parameters']) ? tool['parameters'] : null;
  const declared = tool['strict'];
  const strict = typeof declared === 'boolean' ? declared : isStrictCompatible(parameters);
  const shownParameters = strict && parameters ? { ...parameters, additionalProperties: false } : parameters;
  return { ...tool, description: tool['description'] ?? null, name: tool['name'], parameters: shownParameters, strict };
}

/** The Response object around `output`, every request setting echoed with OpenAI's defaults. */
export function responseShell(meta: ResponseMeta, status: ResponseStatus): ResponseBody {
  const { request } = meta;
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    status,
    background: request.background ?? false,
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    max_tool_calls: typeof request['max_tool_calls'] === 'number' ? request['max_tool_calls'] : null,
    model: request.model,
    output: [],
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    prompt_cache_key: request.prompt_cache_key ?? null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    safety_identifier: typeof request['safety_identifier'] === 'string' ? request['safety_identifier'] : null,
    service_tier: servedTier(request),
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    text: { format: request.text?.format ?? { type: 'text' }, verbosity: request.text?.verbosity ?? 'medium' },
    tool_choice: request.tool_choice ?? 'auto',
    tools: (request.tools ?? []).map(echoedTool),
    top_logprobs: typeof request['top_logprobs'] === 'number' ? request['top_logprobs'] : 0,
    top_p: request.top_p ?? 1,
    truncation: request.truncation ?? 'disabled',
    usage: null,
    user: request.user ?? null,
    metadata: request.metadata ?? {},
  };
}

export function usageOf(plan: AnswerContent): ResponseUsageBody {
  return {
    input_tokens: plan.usage.prompt_tokens,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens: plan.usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: plan.usage.total_tokens,
  };
}

/** The text the answer says (a tool preamble counts), undefined when it only calls tools. */
export function answerText(plan: AnswerContent): string | undefined {
  return plan.kind === 'text' ? plan.content : plan.preamble;
}

/** True when `max_output_tokens` cut the answer: the response and its message end `incomplete`. */
export function isCut(plan: AnswerContent): boolean {
  return plan.kind === 'text' && plan.finishReason === 'length';
}

/**
 * One call as an output item: a `function_call`, or a `custom_tool_call` carrying its text; a
 * tool offered from a namespace under its own name again, with `namespace` (to-internal-request).
 */
function callItemOf(call: ToolCall, origins: ToolOrigins): FunctionCallItem | CustomToolCallItem {
  const offered = call.type === 'function' ? call.function.name : call.custom.name;
  const origin = origins.get(offered);
  const named = origin ? { name: origin.name, namespace: origin.namespace } : { name: offered };
  if (call.type === 'custom') {
    return { id: newId('ctc'), type: 'custom_tool_call', status: 'completed', call_id: call.id, input: call.custom.input, ...named };
  }
  return { id: newId('fc'), type: 'function_call', status: 'completed', arguments: call.function.arguments, call_id: call.id, ...named };
}

/** The finished output items: the hosted calls OpenAI ran, a message (text or tool preamble), then one item per call. */
export function outputItemsOf(plan: AnswerContent, hosted: readonly HostedCallItem[] = [], origins: ToolOrigins = new Map()): OutputItem[] {
  const text = answerText(plan);
  const message: OutputMessageItem[] =
    text === undefined
      ? []
      : [
          {
            id: newId('msg'),
            type: 'message',
            status: isCut(plan) ? 'incomplete' : 'completed',
            content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
            role: 'assistant',
          },
        ];
  const calls = plan.kind === 'tool_calls' ? plan.toolCalls.map((call) => callItemOf(call, origins)) : [];
  return [...hosted, ...message, ...calls];
}

/** The finished Response: `completed`, or `incomplete` with its reason when the answer was cut. */
export function finishedResponse(meta: ResponseMeta, plan: AnswerContent, output: OutputItem[], completedAt: number): ResponseBody {
  const cut = isCut(plan);
  return {
    ...responseShell(meta, cut ? 'incomplete' : 'completed'),
    completed_at: cut ? null : completedAt,
    incomplete_details: cut ? { reason: 'max_output_tokens' } : null,
    output,
    usage: usageOf(plan),
  };
}

/** A Response that failed (a `stream-error` fault): OpenAI's `server_error`, no output. */
export function failedResponse(meta: ResponseMeta): ResponseBody {
  return {
    ...responseShell(meta, 'failed'),
    error: { code: 'server_error', message: 'The server had an error while processing your request. Sorry about that!' },
  };
}
