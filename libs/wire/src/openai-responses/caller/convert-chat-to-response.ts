import type { ChatCompletion, ResponseOutputItem, ResponseObject, ResponsesRequest } from '@chat-relay/contract';
import { reasoningTextOf } from '../../anthropic-messages/reasoning-text-of';
import { buildResponseObject } from './build-response-object';
import { outputLogprobsOf } from './convert-chat-logprobs';
import { mapFinishReasonToIncomplete } from './map-finish-reason-to-incomplete';
import { responseUsageFromChat } from './response-usage-from-chat';

export { responseUsageFromChat };

/** Where output item ids come from: `msg_…`, `fc_…`, `rs_…` (and `ws_…` for a web search), given by the relay. */
export type NewItemId = (prefix: 'msg' | 'fc' | 'rs' | 'ws') => string;

export interface ConvertChatToResponseArgs {
  /** The hub's answer (an upstream adapter's `convertResponse` body). */
  completion: ChatCompletion;
  /** The caller's request, whose settings the Response echoes. */
  request: ResponsesRequest;
  responseId: string;
  /** Unix seconds. */
  createdAt: number;
  /** The model name the caller sent. */
  publicModel: string;
  newId: NewItemId;
  /** Output before this model call's: earlier model calls of the same answer and the web searches the relay ran between them. */
  leadingItems?: readonly ResponseOutputItem[];
}

/** The call_id of a hub tool call that came without an id (Responses requires one). */
export const bridgedCallId = (itemId: string): string => `call_${itemId}`;

/**
 * A hub `chat.completion` (its first choice) → a Response. Output items in order: the items of
 * earlier model calls of the answer (`leadingItems`: with the web searches the relay ran), a `reasoning`
 * item when the message has reasoning text (as its one summary_text: the bridge has no
 * encrypted reasoning to give), a `message` item with an `output_text` part (annotations [],
 * the choice's logprobs) and/or a `refusal` part when there is text or a refusal, then one
 * `function_call` item per tool call (call_id = the hub's tool call id) — text and calls of one
 * turn are both kept. Status: finish reason `length` → incomplete (max_output_tokens),
 * `content_filter` → incomplete (content_filter), else completed; the model's items are always
 * completed (a hosted call keeps its own status: a failed search stays failed).
 * Usage: see responseUsageFromChat; the rest: see buildResponseObject.
 */
export function convertChatToResponse({ completion, request, responseId, createdAt, publicModel, newId, leadingItems = [] }: ConvertChatToResponseArgs): ResponseObject {
  const choice = completion.choices[0];
  const message = choice?.message;
  const output: ResponseOutputItem[] = [...leadingItems];
  const reasoning = message ? reasoningTextOf(message) : '';
  if (reasoning !== '') output.push({ type: 'reasoning', id: newId('rs'), summary: [{ type: 'summary_text', text: reasoning }] });
  const content: Extract<ResponseOutputItem, { type: 'message' }>['content'] = [];
  if (message?.content) content.push({ type: 'output_text', text: message.content, annotations: [], logprobs: outputLogprobsOf(choice?.logprobs) });
  if (message?.refusal) content.push({ type: 'refusal', refusal: message.refusal });
  if (content.length > 0) output.push({ type: 'message', id: newId('msg'), status: 'completed', role: 'assistant', content });
  // Only function calls can come back: the bridge sends function tools only.
  for (const call of message?.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    const id = newId('fc');
    output.push({ type: 'function_call', id, call_id: call.id || bridgedCallId(id), name: call.function.name, arguments: call.function.arguments, status: 'completed' });
  }
  const incompleteReason = mapFinishReasonToIncomplete(choice?.finish_reason);
  return buildResponseObject(
    { request, responseId, createdAt, publicModel },
    {
      status: incompleteReason ? 'incomplete' : 'completed',
      output,
      ...(completion.usage ? { usage: responseUsageFromChat(completion.usage) } : {}),
      ...(incompleteReason ? { incompleteReason } : {}),
    },
  );
}
