import type { AnthropicContentBlock, AnthropicContentBlockDelta, AnthropicStreamEvent } from '@chat-relay/contract';
import type { RelayError } from '../../errors/relay-error';
import type { ChunkTransformer } from '../../hub/chunk-transformer';
import type { StreamStep } from '../../hub/upstream-adapter';
import { readHubChunk } from '../../hub/read-hub-chunk';
import { ToolCallAssembler, type AssembledToolCall } from '../../hub/tool-call-assembler';
import { isJsonObject, isNumber, isString, type JsonObject } from '../../json/json-checks';
import { BRIDGED_THINKING_SIGNATURE } from './bridged-thinking-signature';
import { convertChatUsageToAnthropic, type BridgedUsage } from './convert-chat-usage-to-anthropic';
import { mapFinishReasonToStopReason } from './map-finish-reason-to-stop-reason';
import { bridgedToolId, reasoningTextOf } from '../reasoning-text-of';
import { toMessageId } from './to-message-id';

export interface ChatToMessagesStreamOptions {
  /** The model name the caller sent, which `message_start` carries. */
  publicModel: string;
  /** Prompt tokens the relay counted itself: `message_start`'s input_tokens, and the fallback when no usage comes. */
  inputTokens?: number;
  /** Counts the streamed output (text, thinking, tool input) when the upstream reports no usage. */
  countOutputTokens?: (text: string) => number;
}

/** One tool call of the hub stream, on its way to becoming a `tool_use` block. */
interface ToolCall extends AssembledToolCall {
  state: 'waiting' | 'open' | 'closed';
}

type OpenBlock = { kind: 'text' | 'thinking'; index: number } | { kind: 'tool'; index: number; call: ToolCall };

type EventOf<T extends AnthropicStreamEvent['type']> = Extract<AnthropicStreamEvent, { type: T }>;

const isCompleteJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const nonEmpty = (value: unknown): string => (isString(value) ? value : '');

/**
 * Hub chunks → a Messages stream (`message_start`, blocks, one `message_delta`, `message_stop`).
 * `message_start` comes once, first. A text block opens only at the first non-empty text (so
 * never an empty one); reasoning text (`reasoning_content` / `reasoning`) becomes a thinking
 * block closed by one signature_delta of BRIDGED_THINKING_SIGNATURE; `refusal` text is text.
 * Each tool call is its own `tool_use` block, started with `input: {}` once its name is known,
 * and every argument fragment — the first one too, even when it came with the id and name — is an
 * input_json_delta as it came. Blocks never interleave: a call that starts while another call's
 * arguments are not yet complete JSON waits, its fragments kept, until that one completes or the
 * answer ends; a later fragment of a call already closed is dropped. The usage chunk (or finish())
 * ends the message: open blocks stopped, `message_delta` with the stop reason and cumulative
 * usage, `message_stop`. When no usage came, the relay's own counts (options) stand in. A chunk
 * with an `error` is one error step; nothing follows message_stop or an error.
 */
export class ChatToMessagesStream implements ChunkTransformer {
  private messageId = '';
  private started = false;
  private ended = false;
  private nextIndex = 0;
  private open: OpenBlock | undefined;
  private readonly calls = new ToolCallAssembler<ToolCall>(() => ({ id: '', name: '', args: '', state: 'waiting' }));
  private readonly waiting: ToolCall[] = [];
  private toolBlocks = 0;
  private finishReason: string | null = null;
  private usage: JsonObject | undefined;
  private readonly output: string[] = [];

  constructor(private readonly options: ChatToMessagesStreamOptions) {}

  transform(chunkJson: string): StreamStep[] {
    if (this.ended) return [];
    const read = readHubChunk(chunkJson);
    if (read.error) return this.stopWith(read.error);
    const { chunk } = read;
    const steps = this.start(chunk['id']);
    const choices = Array.isArray(chunk['choices']) ? chunk['choices'] : [];
    // A Message is one answer: choice 0 (the bridge never asks for more).
    for (const choice of choices) {
      if (!isJsonObject(choice) || (isNumber(choice['index']) ? choice['index'] : 0) !== 0) continue;
      if (isJsonObject(choice['delta'])) steps.push(...this.delta(choice['delta']));
      if (isString(choice['finish_reason'])) this.finishReason = choice['finish_reason'];
    }
    if (isJsonObject(chunk['usage'])) {
      this.usage = chunk['usage'];
      // Usage on every chunk (vLLM's continuous stats) is not the end; the final usage chunk is.
      if (choices.length === 0 || this.finishReason !== null) steps.push(...this.end());
    }
    return steps;
  }

  finish(): StreamStep[] {
    return this.ended ? [] : this.end();
  }

  private delta(delta: JsonObject): StreamStep[] {
    const steps: StreamStep[] = [];
    const reasoning = reasoningTextOf(delta);
    if (reasoning !== '') steps.push(...this.appendTo('thinking', reasoning));
    for (const text of [nonEmpty(delta['content']), nonEmpty(delta['refusal'])]) {
      if (text !== '') steps.push(...this.appendTo('text', text));
    }
    const toolCalls = delta['tool_calls'];
    if (Array.isArray(toolCalls)) {
      for (const call of toolCalls) if (isJsonObject(call)) steps.push(...this.toolCallDelta(call));
    }
    return steps;
  }

  /** Text or thinking goes into the open block of its kind, or a new one after everything else is closed. */
  private appendTo(kind: 'text' | 'thinking', text: string): StreamStep[] {
    const steps: StreamStep[] = [];
    if (this.open?.kind !== kind) {
      steps.push(...this.closeAll());
      const block: AnthropicContentBlock =
        kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
      steps.push(this.startBlock(block, (index) => ({ kind, index })));
    }
    this.output.push(text);
    steps.push(this.blockDelta(kind === 'text' ? { type: 'text_delta', text } : { type: 'thinking_delta', thinking: text }));
    return steps;
  }

  private toolCallDelta(delta: JsonObject): StreamStep[] {
    const { call, fragment, started } = this.calls.add(delta);
    if (started) this.waiting.push(call);
    const steps: StreamStep[] = [];
    if (call.state === 'open' && fragment !== '') steps.push(this.inputDelta(fragment));
    steps.push(...this.startWaitingCalls());
    return steps;
  }

  /** Starts waiting calls in order while the open block may end: it is no tool, or its arguments are complete. */
  private startWaitingCalls(): StreamStep[] {
    const steps: StreamStep[] = [];
    for (let next = this.waiting[0]; next && next.name !== ''; next = this.waiting[0]) {
      if (this.open?.kind === 'tool' && !isCompleteJson(this.open.call.args)) break;
      steps.push(...this.stopOpenBlock());
      this.waiting.shift();
      steps.push(...this.startCall(next));
    }
    return steps;
  }

  private startCall(call: ToolCall): StreamStep[] {
    call.state = 'open';
    if (call.id === '') call.id = bridgedToolId(this.toolBlocks);
    this.toolBlocks += 1;
    const steps = [this.startBlock({ type: 'tool_use', id: call.id, name: call.name, input: {} }, (index) => ({ kind: 'tool', index, call }))];
    if (call.args !== '') steps.push(this.inputDelta(call.args));
    return steps;
  }

  private inputDelta(fragment: string): StreamStep {
    this.output.push(fragment);
    return this.blockDelta({ type: 'input_json_delta', partial_json: fragment });
  }

  /** The open block, then every waiting call as a whole block. */
  private closeAll(): StreamStep[] {
    const steps = this.stopOpenBlock();
    for (let next = this.waiting.shift(); next; next = this.waiting.shift()) {
      steps.push(...this.startCall(next), ...this.stopOpenBlock());
    }
    return steps;
  }

  private stopOpenBlock(): StreamStep[] {
    const open = this.open;
    if (!open) return [];
    this.open = undefined;
    const steps: StreamStep[] = [];
    if (open.kind === 'thinking') {
      steps.push(this.event({ type: 'content_block_delta', index: open.index, delta: { type: 'signature_delta', signature: BRIDGED_THINKING_SIGNATURE } }));
    }
    if (open.kind === 'tool') open.call.state = 'closed';
    steps.push(this.event({ type: 'content_block_stop', index: open.index }));
    return steps;
  }

  private startBlock(block: AnthropicContentBlock, open: (index: number) => OpenBlock): StreamStep {
    const index = this.nextIndex++;
    this.open = open(index);
    return this.event({ type: 'content_block_start', index, content_block: block });
  }

  private blockDelta(delta: AnthropicContentBlockDelta): StreamStep {
    return this.event({ type: 'content_block_delta', index: this.open?.index ?? 0, delta });
  }

  private start(id: unknown): StreamStep[] {
    if (this.started) return [];
    this.started = true;
    this.messageId = toMessageId(isString(id) ? id : undefined);
    const message: EventOf<'message_start'>['message'] = {
      id: this.messageId,
      type: 'message',
      role: 'assistant',
      content: [],
      model: this.options.publicModel,
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: this.options.inputTokens ?? 0, output_tokens: 0 },
    };
    return [this.event({ type: 'message_start', message })];
  }

  private end(): StreamStep[] {
    const steps = [...this.start(undefined), ...this.closeAll()];
    this.ended = true;
    steps.push(
      this.event({
        type: 'message_delta',
        delta: { stop_reason: mapFinishReasonToStopReason(this.finishReason, this.toolBlocks > 0), stop_sequence: null },
        usage: this.finalUsage(),
      }),
      this.event({ type: 'message_stop' }),
    );
    return steps;
  }

  private finalUsage(): BridgedUsage {
    if (this.usage) return convertChatUsageToAnthropic(this.usage);
    const output = this.output.join('');
    return {
      input_tokens: this.options.inputTokens ?? 0,
      output_tokens: output === '' ? 0 : (this.options.countOutputTokens?.(output) ?? 0),
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    };
  }

  private event(event: AnthropicStreamEvent): StreamStep {
    return { kind: 'chunk', event: event.type, json: JSON.stringify(event) };
  }

  private stopWith(error: RelayError): StreamStep[] {
    this.ended = true;
    return [{ kind: 'error', error }];
  }
}
