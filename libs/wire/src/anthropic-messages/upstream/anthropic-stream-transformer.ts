import type { ChatCompletionChunk, FinishReason } from '@chat-relay/contract';
import { upstreamError } from '../../errors/relay-error';
import { THINKING_BLOCKS_FIELD, type HubThinkingBlock } from '../../hub/thinking-blocks';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer, StreamTransformerOptions } from '../../hub/upstream-adapter';
import {
  ANTHROPIC_STREAM_EVENT_TYPES,
  AnthropicStreamEventSchema,
  isInputJsonDelta,
  isTextBlock,
  isTextDelta,
  isToolUseBlock,
  type AnthropicStreamEvent,
  type AnthropicUsage,
} from '../anthropic-api';
import { isJsonResponseTool } from './anthropic-json-response-tool';
import { mapAnthropicStreamError } from './anthropic-error';
import { convertAnthropicUsage } from './convert-anthropic-usage';
import { finishReasonFor } from './map-anthropic-stop-reason';
import { mergeAnthropicUsage } from './merge-anthropic-usage';
import { DeliveredText } from '../../hub/delivered-text';

export interface AnthropicStreamTransformerOptions extends StreamTransformerOptions {
  /** Unix seconds, the same on every chunk. */
  created: number;
}

type Delta = ChatCompletionChunk['choices'][number]['delta'];
type ChunkEnvelope = Pick<ChatCompletionChunk, 'id' | 'object' | 'created' | 'model'>;
type Event<T extends AnthropicStreamEvent['type']> = Extract<AnthropicStreamEvent, { type: T }>;

/** What an open content block is, by its Anthropic index. */
type Block =
  | { kind: 'text' }
  | { kind: 'tool'; toolIndex: number; sentArguments: boolean; startInput: Record<string, unknown> }
  | { kind: 'json'; sentContent: boolean; startInput: Record<string, unknown> }
  | { kind: 'thinking'; signature: string }
  | { kind: 'ignored' };

const stringOr = (value: unknown): string => (typeof value === 'string' ? value : '');

const badEvent = (message: string): StreamStep => ({ kind: 'error', error: upstreamError(message, 'bad_response') });

/**
 * Anthropic stream events → OpenAI chunks, event by event (the relay frames them). Each
 * `tool_use` block becomes its own call, numbered 0, 1, 2… among tool calls only (Anthropic's
 * block index also counts text blocks); its first delta carries `id`, `type` and `name` with
 * `arguments: ''`, later ones only `input_json_delta` fragments as they came — so arguments cut
 * off by `max_tokens` arrive as they are — and a call that received no fragment is closed with
 * `"{}"`. `finish_reason` is sent once, at `message_delta`; the usage chunk after `message_stop`
 * when the caller asked for it; an `error` event is one error step, then nothing more.
 * Thinking: its text as `reasoning_content` deltas, and at the block's end one delta with the
 * signed block (`thinking_blocks`, text '' since it came already; a redacted block whole, at its
 * start) — see hub/thinking-blocks.ts. Pings carry nothing for the caller.
 */
export class AnthropicStreamTransformer implements StreamTransformer {
  private id = '';
  private started = false;
  private finished = false;
  private ended = false;
  private stopped = false;
  private toolCount = 0;
  private stopReason: string | null | undefined;
  private startUsage: AnthropicUsage | undefined;
  private finalUsage: AnthropicUsage | undefined;
  private readonly deliveredSoFar = new DeliveredText();
  private readonly blocks = new Map<number, Block>();

  constructor(private readonly options: AnthropicStreamTransformerOptions) {}

  get complete(): boolean {
    return this.stopped;
  }

  get usage(): ReportedUsage | undefined {
    return this.finalUsage ? convertAnthropicUsage(this.finalUsage).reported : undefined;
  }

  get deliveredChars(): number {
    return this.deliveredSoFar.chars;
  }

  get deliveredText(): string {
    return this.deliveredSoFar.text;
  }

  transform(sse: SseEvent): StreamStep[] {
    if (this.ended) return [];
    let json: unknown;
    try {
      json = JSON.parse(sse.data);
    } catch {
      return this.stopWith(badEvent('The upstream provider sent a malformed stream event.'));
    }
    const type = (json as { type?: unknown } | null)?.type;
    // Event types added after 2023-06-01 are skipped, as Anthropic asks clients to do.
    if (typeof type !== 'string' || !ANTHROPIC_STREAM_EVENT_TYPES.has(type)) return [];
    const parsed = AnthropicStreamEventSchema.safeParse(json);
    if (!parsed.success) return this.stopWith(badEvent(`The upstream provider sent an unexpected '${type}' event.`));
    return this.handle(parsed.data);
  }

  finish(): StreamStep[] {
    return [];
  }

  private handle(event: AnthropicStreamEvent): StreamStep[] {
    switch (event.type) {
      case 'message_start':
        this.id = event.message.id;
        this.startUsage = event.message.usage;
        return this.opening();
      case 'content_block_start':
        return this.startBlock(event);
      case 'content_block_delta':
        return this.blockDelta(event);
      case 'content_block_stop':
        return this.stopBlock(event.index);
      case 'message_delta':
        return this.messageDelta(event);
      case 'message_stop':
        return this.messageStop();
      case 'ping':
        return [];
      case 'error':
        return this.stopWith({ kind: 'error', error: mapAnthropicStreamError(event.error, this.options.secrets) });
      default: {
        const unhandled: never = event;
        throw new Error(`unhandled Anthropic stream event ${JSON.stringify(unhandled)}`);
      }
    }
  }

  private startBlock({ index, content_block: block }: Event<'content_block_start'>): StreamStep[] {
    if (isTextBlock(block)) {
      this.blocks.set(index, { kind: 'text' });
      return block.text === '' ? [] : this.content(block.text);
    }
    if (block.type === 'thinking') {
      this.blocks.set(index, { kind: 'thinking', signature: stringOr(block['signature']) });
      return this.reasoning(stringOr(block['thinking']));
    }
    if (block.type === 'redacted_thinking') {
      this.blocks.set(index, { kind: 'ignored' });
      const data = stringOr(block['data']);
      return data === '' ? [] : this.thinkingBlock({ type: 'redacted_thinking', data });
    }
    if (!isToolUseBlock(block)) {
      this.blocks.set(index, { kind: 'ignored' });
      return [];
    }
    if (isJsonResponseTool(block.name)) {
      this.blocks.set(index, { kind: 'json', sentContent: false, startInput: block.input });
      return this.opening();
    }
    const toolIndex = this.toolCount++;
    this.blocks.set(index, { kind: 'tool', toolIndex, sentArguments: false, startInput: block.input });
    return this.emit({
      tool_calls: [{ index: toolIndex, id: block.id, type: 'function', function: { name: block.name, arguments: '' } }],
    });
  }

  private blockDelta({ index, delta }: Event<'content_block_delta'>): StreamStep[] {
    const block = this.blocks.get(index);
    if (!block) return this.stopWith(badEvent(`The upstream provider sent a delta for an unknown block ${index}.`));
    if (isTextDelta(delta)) {
      if (block.kind !== 'text') return this.stopWith(badEvent(`The upstream provider sent text into block ${index}.`));
      return delta.text === '' ? [] : this.content(delta.text);
    }
    if (block.kind === 'thinking') {
      if (delta.type === 'thinking_delta') return this.reasoning(stringOr(delta['thinking']));
      if (delta.type === 'signature_delta') block.signature += stringOr(delta['signature']);
      return [];
    }
    if (!isInputJsonDelta(delta)) return [];
    if (delta.partial_json === '') return [];
    if (block.kind === 'json') {
      block.sentContent = true;
      return this.content(delta.partial_json);
    }
    if (block.kind !== 'tool') return this.stopWith(badEvent(`The upstream provider sent tool input into block ${index}.`));
    block.sentArguments = true;
    return this.toolArguments(block.toolIndex, delta.partial_json);
  }

  /** A call that got no fragment (a tool without arguments) still ends as valid JSON. */
  private stopBlock(index: number): StreamStep[] {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    if (block?.kind === 'tool' && !block.sentArguments) {
      return this.toolArguments(block.toolIndex, JSON.stringify(block.startInput));
    }
    if (block?.kind === 'json' && !block.sentContent) return this.content(JSON.stringify(block.startInput));
    if (block?.kind === 'thinking' && block.signature !== '') return this.thinkingBlock({ type: 'thinking', thinking: '', signature: block.signature });
    return [];
  }

  private reasoning(text: string): StreamStep[] {
    if (text === '') return [];
    this.deliveredSoFar.add(text);
    return this.emit({ reasoning_content: text });
  }

  private thinkingBlock(block: HubThinkingBlock): StreamStep[] {
    return this.emit({ [THINKING_BLOCKS_FIELD]: [block] });
  }

  private messageDelta({ delta, usage }: Event<'message_delta'>): StreamStep[] {
    if (delta.stop_reason !== undefined) this.stopReason = delta.stop_reason;
    if (usage) this.finalUsage = mergeAnthropicUsage(this.finalUsage ?? this.startUsage, usage) ?? this.finalUsage;
    return this.finishOnce(finishReasonFor(this.stopReason, this.toolCount));
  }

  private messageStop(): StreamStep[] {
    this.stopped = true;
    this.ended = true;
    this.finalUsage ??= this.startUsage;
    const steps = this.finishOnce(finishReasonFor(this.stopReason, this.toolCount));
    if (this.options.callerWantsUsage && this.finalUsage) {
      const { usage } = convertAnthropicUsage(this.finalUsage);
      const chunk: ChatCompletionChunk = { ...this.envelope(), choices: [], usage };
      steps.push({ kind: 'chunk', json: JSON.stringify(chunk) });
    }
    return steps;
  }

  private finishOnce(reason: FinishReason): StreamStep[] {
    if (this.finished) return [];
    this.finished = true;
    return this.emit({}, reason);
  }

  private content(text: string): StreamStep[] {
    this.deliveredSoFar.add(text);
    return this.emit({ content: text });
  }

  private toolArguments(index: number, fragment: string): StreamStep[] {
    this.deliveredSoFar.add(fragment);
    return this.emit({ tool_calls: [{ index, function: { arguments: fragment } }] });
  }

  /** The first chunk of every OpenAI stream announces the assistant role. */
  private opening(): StreamStep[] {
    if (this.started) return [];
    this.started = true;
    return [this.chunk({ role: 'assistant', content: '' }, null)];
  }

  private emit(delta: Delta, finishReason: FinishReason | null = null): StreamStep[] {
    return [...this.opening(), this.chunk(delta, finishReason)];
  }

  private envelope(): ChunkEnvelope {
    return { id: this.id, object: 'chat.completion.chunk', created: this.options.created, model: this.options.publicModel };
  }

  private chunk(delta: Delta, finishReason: FinishReason | null): StreamStep {
    const chunk: ChatCompletionChunk = { ...this.envelope(), choices: [{ index: 0, delta, finish_reason: finishReason }] };
    return { kind: 'chunk', json: JSON.stringify(chunk) };
  }

  private stopWith(step: StreamStep): StreamStep[] {
    this.ended = true;
    return [step];
  }
}
