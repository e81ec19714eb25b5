import type { ChatCompletion, ResponseOutputItem, ResponseObject, ResponsesRequest } from '@chat-relay/contract';
import { reasoningTextOf } from '../../anthropic-messages/reasoning-text-of';
import { encryptedContentOf, thinkingBlocksOf, type HubThinkingBlock } from '../../hub/thinking-blocks';
import { buildResponseObject } from './build-response-object';
import { bridgedToolsOf, customInputOf, type BridgedTool } from './bridged-tools';
import { outputLogprobsOf } from './convert-chat-logprobs';
import { mapFinishReasonToIncomplete } from './map-finish-reason-to-incomplete';
import { responseUsageFromChat } from './response-usage-from-chat';

export { responseUsageFromChat };

/** Where output item ids come from: `msg_…`, `fc_…`, `ctc_…`, `rs_…` (and `ws_…` for a web search), given by the relay. */
export type NewItemId = (prefix: 'msg' | 'fc' | 'ctc' | 'rs' | 'ws') => string;

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

/** A signed thinking block as a reasoning item: its text the summary (a redacted block has none). */
function reasoningItemOf(block: HubThinkingBlock, id: string): ResponseOutputItem {
  const summary = block.type === 'thinking' && block.thinking !== '' ? [{ type: 'summary_text' as const, text: block.thinking }] : [];
  return { type: 'reasoning', id, summary, encrypted_content: encryptedContentOf(block) };
}

/** The call_id of a hub tool call that came without an id (Responses requires one). */
export const bridgedCallId = (itemId: string): string => `call_${itemId}`;

/**
 * A call of the name a tool was offered under → its output item, in the caller's terms: the
 * namespace and name restored; a custom tool's call a `custom_tool_call` with its text, whether
 * it came as a custom call (`customCall`) or as the one-string function Anthropic and Gemini
 * channels offer (then `payload` is that function's arguments). `call_id` is left to the caller.
 */
export function callItemOf(offeredName: string, payload: string, customCall: boolean, tools: ReadonlyMap<string, BridgedTool> | undefined, newId: NewItemId) {
  const tool = tools?.get(offeredName);
  const namespace = tool?.namespace !== undefined ? { namespace: tool.namespace } : {};
  const name = tool?.name ?? offeredName;
  if (customCall || tool?.custom) {
    const input = customCall ? payload : customInputOf(payload);
    return { type: 'custom_tool_call' as const, id: newId('ctc'), call_id: '', ...namespace, name, input, status: 'completed' as const };
  }
  return { type: 'function_call' as const, id: newId('fc'), call_id: '', ...namespace, name, arguments: payload, status: 'completed' as const };
}

/**
 * A hub `chat.completion` (its first choice) → a Response. Output items in order: the items of
 * earlier model calls of the answer (`leadingItems`: with the web searches the relay ran), a
 * `reasoning` item per signed thinking block (`thinking_blocks`, an anthropic channel's: its text
 * as the one summary_text, the block as `encrypted_content` so the item brings it back), else one
 * when the message has reasoning text (its one summary_text, nothing encrypted to give), a
 * `message` item with an `output_text` part (annotations [],
 * the choice's logprobs) and/or a `refusal` part when there is text or a refusal, then one
 * `function_call` item per tool call (call_id = the hub's tool call id; a namespaced tool's name
 * and namespace restored), or a `custom_tool_call` for a custom tool (see callItemOf) — text and
 * calls of one turn are both kept. Status: finish reason `length` → incomplete (max_output_tokens),
 * `content_filter` → incomplete (content_filter), else completed; the model's items are always
 * completed (a hosted call keeps its own status: a failed search stays failed).
 * Usage: see responseUsageFromChat; the rest: see buildResponseObject.
 */
export function convertChatToResponse({ completion, request, responseId, createdAt, publicModel, newId, leadingItems = [] }: ConvertChatToResponseArgs): ResponseObject {
  const choice = completion.choices[0];
  const message = choice?.message;
  const output: ResponseOutputItem[] = [...leadingItems];
  const blocks = message ? thinkingBlocksOf(message) : [];
  const reasoning = message && blocks.length === 0 ? reasoningTextOf(message) : '';
  for (const block of blocks) output.push(reasoningItemOf(block, newId('rs')));
  if (reasoning !== '') output.push({ type: 'reasoning', id: newId('rs'), summary: [{ type: 'summary_text', text: reasoning }] });
  const content: Extract<ResponseOutputItem, { type: 'message' }>['content'] = [];
  if (message?.content) content.push({ type: 'output_text', text: message.content, annotations: [], logprobs: outputLogprobsOf(choice?.logprobs) });
  if (message?.refusal) content.push({ type: 'refusal', refusal: message.refusal });
  if (content.length > 0) output.push({ type: 'message', id: newId('msg'), status: 'completed', role: 'assistant', content });
  const calls = message?.tool_calls ?? [];
  const tools = calls.length > 0 ? bridgedToolsOf(request) : undefined;
  for (const call of calls) {
    const item = call.type === 'function' ? callItemOf(call.function.name, call.function.arguments, false, tools, newId) : callItemOf(call.custom.name, call.custom.input, true, tools, newId);
    output.push({ ...item, call_id: call.id || bridgedCallId(item.id) });
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
