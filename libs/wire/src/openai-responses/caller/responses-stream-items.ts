import type { ResponseOutputItem, ResponseWebSearchCall } from '@chat-relay/contract';
import type { DeltaLogprob, OutputLogprob } from './convert-chat-logprobs';
import { customInputOf } from './bridged-tools';

/** A message part as it grows: its text or refusal so far. */
export type PartState = { type: 'output_text'; text: string; logprobs: OutputLogprob[] } | { type: 'refusal'; refusal: string };

interface ItemBase {
  /** `rs_…`, `msg_…`, `fc_…`. */
  id: string;
  outputIndex: number;
  /** Its output_item.done was sent. */
  done: boolean;
}

export interface ReasoningState extends ItemBase {
  kind: 'reasoning';
  text: string;
  /** Whether it has its one summary part (a signed block without text, or a redacted one, has none). */
  summarized: boolean;
  /** The signed thinking it carries (see hub/thinking-blocks.ts), once its block ended. */
  encrypted?: string;
}

export interface MessageState extends ItemBase {
  kind: 'message';
  parts: PartState[];
  /** The last part's content_part.done was not sent yet. */
  partOpen: boolean;
}

export interface CallState extends ItemBase {
  kind: 'call';
  callId: string;
  /** The tool's own name (a namespaced one's restored). */
  name: string;
  namespace?: string;
  /**
   * `function`: a function_call. `custom`: a custom_tool_call whose input streams as it comes.
   * `custom-as-function`: a custom_tool_call the channel made as a one-string function: its
   * input is read from the whole arguments when the call closes.
   */
  form: 'function' | 'custom' | 'custom-as-function';
  /** The arguments, or a custom call's input, so far. */
  args: string;
}

/** A call's custom input as far as it can be told: a function-made one only once it is done. */
export function customInput(item: CallState): string {
  if (item.form === 'custom') return item.args;
  return item.done ? customInputOf(item.args) : '';
}

/** A call item as output_item.added / .done and the Response carry it. */
export function renderCall(item: CallState, status: string): ResponseOutputItem {
  const namespace = item.namespace !== undefined ? { namespace: item.namespace } : {};
  if (item.form === 'function') return { type: 'function_call', id: item.id, call_id: item.callId, ...namespace, name: item.name, arguments: item.args, status };
  return { type: 'custom_tool_call', id: item.id, call_id: item.callId, ...namespace, name: item.name, input: customInput(item), status };
}

/** A call the relay ran itself before the model's answer (a web search): whole from the start. */
export interface HostedState extends ItemBase {
  kind: 'hosted';
  item: ResponseWebSearchCall;
}

/** One output item of a streamed Response, as far as it came. */
export type ItemState = ReasoningState | MessageState | CallState | HostedState;

/** What an item not yet done is called in a Response: still coming, or cut by a failure. */
export type OpenItemStatus = 'in_progress' | 'incomplete';

type OutputPart = Extract<ResponseOutputItem, { type: 'message' }>['content'][number];

export function renderPart(part: PartState): OutputPart {
  return part.type === 'output_text'
    ? { type: 'output_text', text: part.text, annotations: [], logprobs: part.logprobs }
    : { type: 'refusal', refusal: part.refusal };
}

/** An output_text.delta / .done event's logprobs: the part's, without the bytes. */
export const deltaLogprobs = (logprobs: readonly OutputLogprob[]): DeltaLogprob[] =>
  logprobs.map(({ token, logprob, top_logprobs: top }) => ({ token, logprob, top_logprobs: top.map((entry) => ({ token: entry.token, logprob: entry.logprob })) }));

/** An item as a Response's `output` holds it (and output_item.done carries it): done items are completed. */
export function renderItem(item: ItemState, openStatus: OpenItemStatus): ResponseOutputItem {
  const status = item.done ? 'completed' : openStatus;
  switch (item.kind) {
    case 'reasoning':
      return {
        type: 'reasoning',
        id: item.id,
        summary: item.summarized ? [{ type: 'summary_text', text: item.text }] : [],
        ...(item.encrypted !== undefined ? { encrypted_content: item.encrypted } : {}),
      };
    case 'message':
      return { type: 'message', id: item.id, status, role: 'assistant', content: item.parts.map(renderPart) };
    case 'call':
      return renderCall(item, status);
    case 'hosted':
      return item.item;
    default: {
      const unhandled: never = item;
      throw new Error(`unhandled item ${JSON.stringify(unhandled)}`);
    }
  }
}
