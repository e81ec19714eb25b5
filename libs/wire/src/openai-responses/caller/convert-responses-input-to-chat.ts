import { RESPONSES_TO_CHAT } from '../responses-bridge-losses';
import type { AssistantMessage, Message, ResponseInputItem, ResponsesRequest, ToolCall, UserContentPart } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import {
  convertAssistantContentToChat,
  convertInstructionContentToChat,
  convertToolOutputToChat,
  convertUserContentToChat,
  type PartParam,
} from './convert-responses-content-to-chat';
import type { BridgeNotes } from '../../hub/bridge-notes';
import { THINKING_BLOCKS_FIELD, thinkingBlockOfEncrypted, type HubThinkingBlock } from '../../hub/thinking-blocks';
import { itemKind } from './responses-item-kinds';
import { bridgedToolName } from './bridged-tools';


/** An item and where it stands in the request: `input[3]`, or the stored history of previous_response_id. */
interface LocatedItem {
  item: ResponseInputItem;
  at: PartParam;
}

const HISTORY_PARAM = 'previous_response_id';

/** Every item with an id, by id, the first one kept: what an item_reference may name. */
function itemsById(items: readonly LocatedItem[]): Map<string, ResponseInputItem> {
  const byId = new Map<string, ResponseInputItem>();
  for (const { item } of items) {
    const id: unknown = item.id;
    if (item.type !== 'item_reference' && typeof id === 'string' && id !== '' && !byId.has(id)) byId.set(id, item);
  }
  return byId;
}

/**
 * item_reference → the item it names, found among the history and the input. One naming nothing
 * here may name an item the upstream stores (an earlier response's output or reasoning, which the
 * AI SDK refers to this way): a channel speaking the Responses API natively resolves it, so it is
 * left out here and the request is native only — a bridged channel answers the 400 OpenAI does.
 */
function resolveReferences(items: readonly LocatedItem[], referable: readonly ResponseInputItem[], notes: BridgeNotes): LocatedItem[] {
  const byId = itemsById([...items, ...referable.map((item) => ({ item, at: () => HISTORY_PARAM }))]);
  return items.flatMap((located) => {
    const known = itemKind(located.item, located.at);
    if (known.kind !== 'item_reference') return [located];
    const target = byId.get(known.item.id);
    if (!target) {
      notes.nativeOnly ??= invalidRequest(`Item with id '${known.item.id}' not found.`, located.at('.id'), 'item_not_found');
      return [];
    }
    return [{ item: target, at: located.at }];
  });
}

/**
 * The hub's messages being built, with the one rule that needs state: consecutive function
 * calls (and the assistant message right before them) are one assistant message, and the media
 * of tool outputs wait until the run of tool messages ends.
 */
class ChatMessages {
  readonly messages: Message[] = [];
  private lastAssistant: AssistantMessage | undefined;
  private pendingMedia: UserContentPart[] = [];
  /** Signed thinking waiting for the assistant message it belongs to (the reasoning item comes first). */
  private pendingThinking: HubThinkingBlock[] = [];

  push(message: Message): void {
    this.flushMedia();
    if (message.role === 'assistant' && this.pendingThinking.length > 0) {
      message = { ...message, [THINKING_BLOCKS_FIELD]: this.pendingThinking };
    }
    this.pendingThinking = [];
    this.messages.push(message);
    this.lastAssistant = message.role === 'assistant' ? message : undefined;
  }

  pushToolCall(call: ToolCall): void {
    this.flushMedia();
    if (this.lastAssistant) (this.lastAssistant.tool_calls ??= []).push(call);
    else this.push({ role: 'assistant', content: null, tool_calls: [call] });
  }

  /** A reasoning item's signed thinking: into the assistant message it precedes, or the one it follows in the same turn. */
  pushThinking(block: HubThinkingBlock): void {
    const current = this.lastAssistant as (AssistantMessage & { [THINKING_BLOCKS_FIELD]?: HubThinkingBlock[] }) | undefined;
    if (current) (current[THINKING_BLOCKS_FIELD] ??= []).push(block);
    else this.pendingThinking.push(block);
  }

  pushToolResult(callId: string, text: string, media: UserContentPart[]): void {
    this.messages.push({ role: 'tool', tool_call_id: callId, content: text });
    this.lastAssistant = undefined;
    this.pendingMedia.push(...media);
  }

  flushMedia(): void {
    if (this.pendingMedia.length === 0) return;
    this.messages.push({ role: 'user', content: this.pendingMedia });
    this.pendingMedia = [];
    this.lastAssistant = undefined;
  }
}

function convertItem({ item, at }: LocatedItem, chat: ChatMessages, notes: BridgeNotes): void {
  const known = itemKind(item, at);
  switch (known.kind) {
    case 'message': {
      const { role, content } = known.item;
      if (role === 'user') {
        const converted = convertUserContentToChat(content, at, notes);
        if (converted.length > 0 || typeof converted === 'string') chat.push({ role, content: converted });
      } else if (role === 'assistant') {
        const text = convertAssistantContentToChat(content, at, notes);
        if (text !== '') chat.push({ role, content: text });
      } else {
        chat.push({ role, content: convertInstructionContentToChat(content, at, notes) });
      }
      return;
    }
    case 'function_call': {
      const { call_id: id, name, arguments: args } = known.item;
      const namespace: unknown = known.item['namespace'];
      const offered = bridgedToolName(name, typeof namespace === 'string' ? namespace : undefined);
      chat.pushToolCall({ id, type: 'function', function: { name: offered, arguments: args } });
      return;
    }
    case 'custom_tool_call': {
      const { call_id: id, name, namespace, input } = known.item;
      chat.pushToolCall({ id, type: 'custom', custom: { name: bridgedToolName(name, namespace), input } });
      return;
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const { text, media } = convertToolOutputToChat(known.item.output, at, notes);
      if (media.length > 0) notes.lose(RESPONSES_TO_CHAT.rules.toolOutputMedia);
      chat.pushToolResult(known.item.call_id, text, media);
      return;
    }
    case 'additional_tools':
      // Its tools are among the request's tools (convertResponsesToolsToChat).
      return;
    case 'reasoning': {
      const block = thinkingBlockOfEncrypted(known.item.encrypted_content);
      if (block) chat.pushThinking(block);
      else notes.lose(RESPONSES_TO_CHAT.rules.reasoningItems);
      return;
    }
    case 'web_search_call':
      notes.lose(RESPONSES_TO_CHAT.rules.webSearchItems);
      return;
    case 'item_reference':
      // resolveReferences replaced every reference; one naming another reference is never a target.
      throw new Error('unresolved item_reference');
    case 'other':
      notes.refuse(at('.type'), `a '${known.type}' item`);
      return;
    default: {
      const unhandled: never = known;
      throw new Error(`unhandled item ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * `instructions`, the earlier turns (`history`: the stored inputs and outputs of
 * previous_response_id, in order) and `input` → the hub's messages. Documented mapping:
 * instructions → one leading system message (only this request's: earlier turns' instructions
 * are not carried over, as at OpenAI); a string input → one user message; message items by role
 * (user content see convertUserContentToChat; system and developer kept as such; assistant see
 * convertAssistantContentToChat — an empty one is not sent); consecutive function_call items,
 * with the assistant message right before them, → one assistant message with `tool_calls` (id =
 * call_id; a namespaced call under its offered name, see bridgedToolName); custom_tool_call →
 * a custom tool call (id = call_id, input as is); function_call_output and
 * custom_tool_call_output → a tool message (see convertToolOutputToChat); additional_tools items
 * → nothing here (their tools are tools, see convertResponsesToolsToChat); a reasoning item
 * whose `encrypted_content` the relay made (an anthropic channel's signed thinking) → the
 * `thinking_blocks` of the assistant message it precedes (or follows, in the same turn), other
 * reasoning items and web_search_call items are dropped; item_reference → the item it names, from the history,
 * the input or `referable` (items of earlier stored responses the caller may name; naming none:
 * native only); any other item (hosted tool calls: file search, computer use, MCP, tool search …)
 * is for native channels.
 */
export function convertResponsesInputToChat(
  request: Pick<ResponsesRequest, 'instructions' | 'input'>,
  history: readonly ResponseInputItem[],
  notes: BridgeNotes,
  referable: readonly ResponseInputItem[] = [],
): Message[] {
  const chat = new ChatMessages();
  if (request.instructions) chat.push({ role: 'system', content: request.instructions });
  const input = request.input ?? [];
  const located: LocatedItem[] = [
    ...history.map((item) => ({ item, at: () => HISTORY_PARAM })),
    ...(typeof input === 'string' ? [] : input.map((item, index) => ({ item, at: (suffix: string) => `input[${index}]${suffix}` }))),
  ];
  for (const item of resolveReferences(located, referable, notes)) convertItem(item, chat, notes);
  if (typeof input === 'string') chat.push({ role: 'user', content: input });
  chat.flushMedia();
  return chat.messages;
}
