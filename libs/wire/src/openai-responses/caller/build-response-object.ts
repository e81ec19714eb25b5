import type { ResponseObject, ResponseOutputItem, ResponsesRequest, ResponseStatus, ResponsesTool, ResponseUsage } from '@chat-relay/contract';
import type { IncompleteReason } from './map-finish-reason-to-incomplete';

export interface ResponseIdentity {
  /** The caller's request: its settings are echoed, as OpenAI does. */
  request: ResponsesRequest;
  /** `resp_…`, given by the relay (it stores the response under it). */
  responseId: string;
  /** Unix seconds. */
  createdAt: number;
  /** The model name the caller sent. */
  publicModel: string;
}

export interface ResponseState {
  status: ResponseStatus;
  output: ResponseOutputItem[];
  /** Absent while unknown (a stream before its usage chunk, an upstream that reports none). */
  usage?: ResponseUsage;
  incompleteReason?: IncompleteReason;
  error?: { code: string; message: string };
}

/**
 * A function tool as a Response echoes it: the official schema requires `parameters` and
 * `strict` (null when the caller gave none); other tools as sent.
 */
function echoTool(tool: ResponsesTool): ResponsesTool {
  if (tool.type !== 'function') return tool;
  const parameters: unknown = tool['parameters'];
  const strict: unknown = tool['strict'];
  return { ...tool, parameters: parameters ?? null, strict: strict ?? null };
}

/**
 * The Response object (`object: "response"`) for a bridged answer, the same for a non-streamed
 * answer and for every lifecycle event of a stream: the answer's status, output and usage, and
 * the request's settings echoed with OpenAI's defaults where the caller gave none (instructions
 * null, tools [], tool_choice auto, parallel_tool_calls true, temperature 1, top_p 1, text
 * format text, truncation disabled, store true, metadata {}, reasoning effort and summary null);
 * `background` is always false (the bridge refuses background mode). `usage` and `user` are left
 * out when unknown, as the official schema has them non-nullable.
 */
export function buildResponseObject(identity: ResponseIdentity, state: ResponseState): ResponseObject {
  const { request } = identity;
  return {
    id: identity.responseId,
    object: 'response',
    created_at: identity.createdAt,
    status: state.status,
    background: false,
    error: state.error ?? null,
    incomplete_details: state.incompleteReason ? { reason: state.incompleteReason } : null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model: identity.publicModel,
    output: state.output,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    reasoning: { effort: null, summary: null, ...request.reasoning },
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    text: { ...request.text, format: request.text?.format ?? { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: (request.tools ?? []).map(echoTool),
    top_p: request.top_p ?? 1,
    truncation: request.truncation ?? 'disabled',
    ...(state.usage ? { usage: state.usage } : {}),
    ...(request.user !== undefined ? { user: request.user } : {}),
    metadata: request.metadata ?? {},
  };
}
