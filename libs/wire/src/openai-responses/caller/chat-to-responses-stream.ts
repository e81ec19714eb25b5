import type { ResponseObject, ResponseUsage, ResponseWebSearchCall } from '@chat-relay/contract';
import { reasoningTextOf } from '../../anthropic-messages/reasoning-text-of';
import type { RelayError } from '../../errors/relay-error';
import type { ChunkTransformer } from '../../hub/chunk-transformer';
import type { StreamStep } from '../../hub/upstream-adapter';
import { readHubChunk } from '../../hub/read-hub-chunk';
import { encryptedContentOf, thinkingBlocksOf, type HubThinkingBlock } from '../../hub/thinking-blocks';
import { ToolCallAssembler, type AssembledToolCall } from '../../hub/tool-call-assembler';
import { isJsonObject, isNumber, isString, type JsonObject } from '../../json/json-checks';
import { buildResponseObject, type ResponseIdentity } from './build-response-object';
import { outputLogprobsOf } from './convert-chat-logprobs';
import { bridgedCallId, type NewItemId } from './convert-chat-to-response';
import { bridgedToolsOf, type BridgedTool } from './bridged-tools';
import { mapFinishReasonToIncomplete } from './map-finish-reason-to-incomplete';
import { responseUsageFromChat } from './response-usage-from-chat';
import { responsesErrorCode } from './responses-error-code';
import {
  deltaLogprobs,
  renderItem,
  renderPart,
  customInput,
  renderCall,
  type CallState,
  type HostedState,
  type ItemState,
  type MessageState,
  type PartState,
  type ReasoningState,
} from './responses-stream-items';

export interface ChatToResponsesStreamOptions extends ResponseIdentity {
  newId: NewItemId;
}

/** One tool call of the hub stream: its fragments wait until its name is known (then its item takes them). */
interface CallSlot extends AssembledToolCall {
  item?: CallState;
}

const nonEmpty = (value: unknown): string => (isString(value) ? value : '');

/**
 * Hub chunks → a Responses stream: `response.created` and `response.in_progress` first, then
 * the output items — the model's, and the web searches the relay runs between its model calls
 * (hostedSearch) — each opened (`output_item.added`) before any delta of its own and closed
 * (`output_item.done`) with its whole content; every event carries `sequence_number` 0, 1, 2 …
 * and the one response id. Reasoning text (`reasoning_content` / `reasoning`) is a reasoning item
 * with one summary part, closed with the signed block as `encrypted_content` when one ends it
 * (`thinking_blocks`, an anthropic channel's); text and refusal are the parts of a message item (a
 * new part when the kind changes); each tool call is a function_call item (a namespaced tool's
 * name and namespace restored), or a custom_tool_call for a custom tool (its input streamed as
 * custom_tool_call_input deltas; when the channel made it as a one-string function, as one delta
 * when it closes), opened once its name is known (its arguments so far then follow as one delta).
 * A reasoning or message item opens after the one before it is closed; a tool call closes the open reasoning or message item, but calls stay open
 * side by side (Chat Completions interleaves them by index) and their deltas go to their own
 * item — nothing is lost. finish() (the upstream ended properly) closes every open item in output
 * order and sends `response.completed`, or `response.incomplete` for finish reason length /
 * content_filter, with the whole Response (see buildResponseObject); fail() sends
 * `response.failed` with the output so far. A malformed chunk or one with an `error` is one
 * error step: the relay then calls fail().
 */
export class ChatToResponsesStream implements ChunkTransformer {
  private sequence = 0;
  private started = false;
  /** An error step was given: transform() and finish() add nothing more. */
  private stopped = false;
  private state: 'streaming' | 'ended' | 'failed' = 'streaming';
  private readonly items: ItemState[] = [];
  private current: ReasoningState | MessageState | undefined;
  private readonly calls = new ToolCallAssembler<CallSlot>(() => ({ id: '', name: '', args: '' }));
  /** What each offered tool name stands for: read when the first call opens. */
  private tools: ReadonlyMap<string, BridgedTool> | undefined;
  private readonly slots: CallSlot[] = [];
  private finishReason: string | null = null;
  private usage: ResponseUsage | undefined;
  private error: { code: string; message: string } | undefined;

  constructor(private readonly options: ChatToResponsesStreamOptions) {}

  /** The Response as it stands: in progress, then completed / incomplete / failed (what the relay stores). */
  get response(): ResponseObject {
    const ended = this.state === 'ended';
    const incompleteReason = ended ? mapFinishReasonToIncomplete(this.finishReason) : undefined;
    const status = this.state === 'failed' ? 'failed' : !ended ? 'in_progress' : incompleteReason ? 'incomplete' : 'completed';
    const openStatus = this.state === 'failed' ? 'incomplete' : 'in_progress';
    return buildResponseObject(this.options, {
      status,
      output: this.items.map((item) => renderItem(item, openStatus)),
      ...(this.usage ? { usage: this.usage } : {}),
      ...(incompleteReason ? { incompleteReason } : {}),
      ...(this.error ? { error: this.error } : {}),
    });
  }

  /** response.failed was sent. */
  get failed(): boolean {
    return this.state === 'failed';
  }

  transform(chunkJson: string): StreamStep[] {
    if (this.stopped || this.state !== 'streaming') return [];
    const read = readHubChunk(chunkJson);
    if (read.error) return this.stopWith(read.error);
    const { chunk } = read;
    const steps = this.start();
    const choices = Array.isArray(chunk['choices']) ? chunk['choices'] : [];
    // A Response is one answer: choice 0 (the bridge never asks for more).
    for (const choice of choices) {
      if (!isJsonObject(choice) || (isNumber(choice['index']) ? choice['index'] : 0) !== 0) continue;
      if (isJsonObject(choice['delta'])) steps.push(...this.delta(choice['delta'], choice['logprobs']));
      if (isString(choice['finish_reason'])) this.finishReason = choice['finish_reason'];
    }
    if (isJsonObject(chunk['usage'])) this.usage = responseUsageFromChat(chunk['usage']);
    return steps;
  }

  finish(): StreamStep[] {
    if (this.stopped || this.state !== 'streaming') return [];
    const steps = this.start();
    // A call whose name never came is still a call the model made: opened now, with no name.
    for (const slot of this.slots) if (!slot.item) steps.push(...this.openCall(slot));
    steps.push(...this.closeAll());
    this.state = 'ended';
    const response = this.response;
    steps.push(this.event(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response }));
    return steps;
  }

  fail(error: RelayError): StreamStep[] {
    if (this.state !== 'streaming') return [];
    const steps = this.start();
    this.state = 'failed';
    this.error = { code: responsesErrorCode(error), message: error.message };
    steps.push(this.event('response.failed', { response: this.response }));
    return steps;
  }

  private delta(delta: JsonObject, logprobs: unknown): StreamStep[] {
    const steps: StreamStep[] = [];
    const reasoning = reasoningTextOf(delta);
    if (reasoning !== '') steps.push(...this.appendReasoning(reasoning));
    for (const block of thinkingBlocksOf(delta)) steps.push(...this.endThinking(block));
    const text = nonEmpty(delta['content']);
    if (text !== '') steps.push(...this.appendToMessage({ type: 'output_text', text, logprobs: outputLogprobsOf(logprobs) }));
    const refusal = nonEmpty(delta['refusal']);
    if (refusal !== '') steps.push(...this.appendToMessage({ type: 'refusal', refusal }));
    const toolCalls = delta['tool_calls'];
    if (Array.isArray(toolCalls)) {
      for (const call of toolCalls) if (isJsonObject(call)) steps.push(...this.toolCallDelta(call));
    }
    return steps;
  }

  private appendReasoning(text: string): StreamStep[] {
    const steps: StreamStep[] = [];
    let item = this.current;
    if (item?.kind !== 'reasoning') {
      steps.push(...this.closeCurrent());
      item = { kind: 'reasoning', id: this.options.newId('rs'), outputIndex: this.items.length, done: false, text: '', summarized: true };
      this.open(item);
      steps.push(
        this.event('response.output_item.added', { output_index: item.outputIndex, item: { type: 'reasoning', id: item.id, summary: [] } }),
        this.event('response.reasoning_summary_part.added', { ...this.summaryAt(item), part: { type: 'summary_text', text: '' } }),
      );
    }
    item.text += text;
    steps.push(this.event('response.reasoning_summary_text.delta', { ...this.summaryAt(item), delta: text }));
    return steps;
  }

  /**
   * A signed thinking block ended: the open reasoning item takes it as `encrypted_content` and
   * closes (the next thinking is an item of its own); a block with no text before it (redacted,
   * or thinking not shown) is an item without summary.
   */
  private endThinking(block: HubThinkingBlock): StreamStep[] {
    const encrypted = encryptedContentOf(block);
    const open = this.current;
    if (open?.kind === 'reasoning' && block.type === 'thinking') {
      open.encrypted = encryptedContentOf({ ...block, thinking: open.text });
      return this.closeCurrent();
    }
    const steps = this.closeCurrent();
    const item: ReasoningState = { kind: 'reasoning', id: this.options.newId('rs'), outputIndex: this.items.length, done: false, text: '', summarized: false, encrypted };
    this.open(item);
    steps.push(this.event('response.output_item.added', { output_index: item.outputIndex, item: { type: 'reasoning', id: item.id, summary: [] } }));
    return [...steps, ...this.closeCurrent()];
  }

  /** A piece of text or refusal, into the open message (a new part when the kind changes) or a new one. */
  private appendToMessage(piece: PartState): StreamStep[] {
    const steps: StreamStep[] = [];
    let message = this.current;
    if (message?.kind !== 'message') {
      steps.push(...this.closeCurrent());
      message = { kind: 'message', id: this.options.newId('msg'), outputIndex: this.items.length, done: false, parts: [], partOpen: false };
      this.open(message);
      const item = { type: 'message', id: message.id, status: 'in_progress', role: 'assistant', content: [] };
      steps.push(this.event('response.output_item.added', { output_index: message.outputIndex, item }));
    }
    let part = message.partOpen ? message.parts.at(-1) : undefined;
    if (part?.type !== piece.type) {
      steps.push(...this.closePart(message));
      part = piece.type === 'output_text' ? { type: 'output_text', text: '', logprobs: [] } : { type: 'refusal', refusal: '' };
      message.parts.push(part);
      message.partOpen = true;
      steps.push(this.event('response.content_part.added', { ...this.partAt(message), part: renderPart(part) }));
    }
    if (part.type === 'output_text' && piece.type === 'output_text') {
      part.text += piece.text;
      part.logprobs.push(...piece.logprobs);
      steps.push(this.event('response.output_text.delta', { ...this.partAt(message), delta: piece.text, logprobs: deltaLogprobs(piece.logprobs) }));
    } else if (part.type === 'refusal' && piece.type === 'refusal') {
      part.refusal += piece.refusal;
      steps.push(this.event('response.refusal.delta', { ...this.partAt(message), delta: piece.refusal }));
    }
    return steps;
  }

  private toolCallDelta(delta: JsonObject): StreamStep[] {
    const { call: slot, fragment, started } = this.calls.add(delta);
    if (started) this.slots.push(slot);
    const item = slot.item;
    if (item) {
      if (fragment === '') return [];
      item.args += fragment;
      return this.callDelta(item, fragment);
    }
    // Until the item opens, `slot.args` is what it opens with.
    return slot.name === '' ? [] : this.openCall(slot);
  }

  private openCall(slot: CallSlot): StreamStep[] {
    const steps = this.closeCurrent();
    this.tools ??= bridgedToolsOf(this.options.request);
    const tool = this.tools.get(slot.name);
    const form = slot.custom ? 'custom' : tool?.custom ? 'custom-as-function' : 'function';
    const id = this.options.newId(form === 'function' ? 'fc' : 'ctc');
    const item: CallState = {
      kind: 'call',
      id,
      outputIndex: this.items.length,
      done: false,
      callId: slot.id || bridgedCallId(id),
      name: tool?.name ?? slot.name,
      ...(tool?.namespace !== undefined ? { namespace: tool.namespace } : {}),
      form,
      args: '',
    };
    this.items.push(item);
    slot.item = item;
    steps.push(this.event('response.output_item.added', { output_index: item.outputIndex, item: renderCall(item, 'in_progress') }));
    if (slot.args !== '') {
      item.args = slot.args;
      steps.push(...this.callDelta(item, slot.args));
    }
    return steps;
  }

  /** A function's arguments stream as they come, a custom call's input too; a function-made custom call's input waits for its end. */
  private callDelta(item: CallState, fragment: string): StreamStep[] {
    const at = { item_id: item.id, output_index: item.outputIndex };
    if (item.form === 'function') return [this.event('response.function_call_arguments.delta', { ...at, delta: fragment })];
    if (item.form === 'custom') return [this.event('response.custom_tool_call_input.delta', { ...at, delta: fragment })];
    return [];
  }

  private open(item: ReasoningState | MessageState): void {
    this.items.push(item);
    this.current = item;
  }

  /** Every open item, in output order. */
  private closeAll(): StreamStep[] {
    return this.items.filter((item) => !item.done).flatMap((item) => (item.kind === 'call' ? this.closeCall(item) : this.closeCurrent()));
  }

  private closeCurrent(): StreamStep[] {
    const item = this.current;
    if (!item) return [];
    this.current = undefined;
    const steps: StreamStep[] = [];
    if (item.kind === 'reasoning' && item.summarized) {
      const part = { type: 'summary_text', text: item.text };
      steps.push(
        this.event('response.reasoning_summary_text.done', { ...this.summaryAt(item), text: item.text }),
        this.event('response.reasoning_summary_part.done', { ...this.summaryAt(item), part }),
      );
    } else if (item.kind === 'message') {
      steps.push(...this.closePart(item));
    }
    return [...steps, this.itemDone(item)];
  }

  private closePart(message: MessageState): StreamStep[] {
    const part = message.parts.at(-1);
    if (!message.partOpen || !part) return [];
    message.partOpen = false;
    const done =
      part.type === 'output_text'
        ? this.event('response.output_text.done', { ...this.partAt(message), text: part.text, logprobs: deltaLogprobs(part.logprobs) })
        : this.event('response.refusal.done', { ...this.partAt(message), refusal: part.refusal });
    return [done, this.event('response.content_part.done', { ...this.partAt(message), part: renderPart(part) })];
  }

  private closeCall(item: CallState): StreamStep[] {
    const at = { item_id: item.id, output_index: item.outputIndex };
    if (item.form === 'function') return [this.event('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.args }), this.itemDone(item)];
    item.done = true;
    const input = customInput(item);
    const steps = item.form === 'custom-as-function' && input !== '' ? [this.event('response.custom_tool_call_input.delta', { ...at, delta: input })] : [];
    return [...steps, this.event('response.custom_tool_call_input.done', { ...at, input }), this.itemDone(item)];
  }

  private itemDone(item: ItemState): StreamStep {
    item.done = true;
    return this.event('response.output_item.done', { output_index: item.outputIndex, item: renderItem(item, 'in_progress') });
  }

  private summaryAt(item: ReasoningState) {
    return { item_id: item.id, output_index: item.outputIndex, summary_index: 0 };
  }

  private partAt(message: MessageState) {
    return { item_id: message.id, output_index: message.outputIndex, content_index: message.parts.length - 1 };
  }

  private start(): StreamStep[] {
    if (this.started) return [];
    this.started = true;
    const response = this.response;
    return [this.event('response.created', { response }), this.event('response.in_progress', { response })];
  }

  /**
   * A web search the relay runs between two model calls, told as OpenAI streams one: when it
   * starts (status in_progress), the open item closed, then output_item.added, in_progress and
   * searching; when it ends, completed (a failed one has no event of its own), then done as it ended.
   */
  hostedSearch(call: ResponseWebSearchCall): StreamStep[] {
    if (this.stopped || this.state !== 'streaming') return [];
    const steps = this.start();
    const known = this.items.find((item): item is HostedState => item.kind === 'hosted' && item.id === call.id);
    if (!known) {
      steps.push(...this.closeCurrent());
      const item: HostedState = { kind: 'hosted', id: call.id, outputIndex: this.items.length, done: false, item: call };
      this.items.push(item);
      const at = { item_id: call.id, output_index: item.outputIndex };
      steps.push(
        this.event('response.output_item.added', { output_index: item.outputIndex, item: call }),
        this.event('response.web_search_call.in_progress', at),
        this.event('response.web_search_call.searching', at),
      );
      return steps;
    }
    known.item = call;
    known.done = true;
    const at = { item_id: call.id, output_index: known.outputIndex };
    if (call.status === 'completed') steps.push(this.event('response.web_search_call.completed', at));
    steps.push(this.event('response.output_item.done', { output_index: known.outputIndex, item: call }));
    return steps;
  }

  private event(type: string, fields: JsonObject): StreamStep {
    const sequenceNumber = this.sequence++;
    return { kind: 'chunk', event: type, json: JSON.stringify({ type, sequence_number: sequenceNumber, ...fields }) };
  }

  private stopWith(error: RelayError): StreamStep[] {
    this.stopped = true;
    return [{ kind: 'error', error }];
  }
}
