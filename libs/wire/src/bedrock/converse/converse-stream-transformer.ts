import type { ChatCompletionChunk, FinishReason } from '@chat-relay/contract';
import { upstreamError } from '../../errors/relay-error';
import { THINKING_BLOCKS_FIELD, type HubThinkingBlock } from '../../hub/thinking-blocks';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer, StreamTransformerOptions } from '../../hub/upstream-adapter';
import { ConverseStreamPayloadSchemas, isConverseStreamEventType, type ConverseStreamEventType, type ConverseUsage } from './converse-api';
import { convertConverseUsage } from './convert-converse-usage';
import { malformedOutput, mapConverseStreamException } from './converse-error';
import { mapConverseStopReason } from './map-converse-stop-reason';
import { DeliveredText } from '../../hub/delivered-text';

export interface ConverseStreamTransformerOptions extends StreamTransformerOptions {
  /** Unix seconds, the same on every chunk. */
  created: number;
  /** ConverseStream names no message: the chunks' id. */
  id: string;
}

type Delta = ChatCompletionChunk['choices'][number]['delta'];
type Payload<T extends ConverseStreamEventType> = ReturnType<(typeof ConverseStreamPayloadSchemas)[T]['parse']>;

/** What an open content block is, by its Converse index (text blocks have no start event). */
type Block =
  | { kind: 'text' }
  | { kind: 'tool'; toolIndex: number; sentArguments: boolean }
  | { kind: 'reasoning'; signature: string; redacted: string };

const badEvent = (message: string): StreamStep => ({ kind: 'error', error: upstreamError(message, 'bad_response') });

/**
 * ConverseStream events (decoded from AWS's event stream by the server) → OpenAI chunks
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html):
 * - `contentBlockStart` with a toolUse opens a call, numbered among tool calls only, whose first
 *   delta carries `id`, `type` and `name`; its `toolUse.input` deltas are argument fragments as
 *   they came, and a call that got none is closed with `"{}"`;
 * - text deltas are content; reasoning text is `reasoning_content`, and at the block's end its
 *   signature (or its redacted content) is one delta with the signed block in `thinking_blocks`;
 * - `messageStop` sends the finish reason; `metadata` the usage (a usage chunk when the caller
 *   asked); the answer is complete once both came;
 * - an exception is one error step, then nothing more.
 */
export class ConverseStreamTransformer implements StreamTransformer {
  private started = false;
  private ended = false;
  private stopped = false;
  private toolCount = 0;
  private converseUsage: ConverseUsage | undefined;
  private readonly deliveredSoFar = new DeliveredText();
  private readonly blocks = new Map<number, Block>();

  constructor(private readonly options: ConverseStreamTransformerOptions) {}

  get complete(): boolean {
    return this.stopped && this.converseUsage !== undefined;
  }

  get usage(): ReportedUsage | undefined {
    return this.converseUsage ? convertConverseUsage(this.converseUsage).reported : undefined;
  }

  get deliveredChars(): number {
    return this.deliveredSoFar.chars;
  }

  get deliveredText(): string {
    return this.deliveredSoFar.text;
  }

  transform(event: SseEvent): StreamStep[] {
    if (this.ended) return [];
    const type = event.event ?? '';
    if ((event as { exception?: unknown }).exception === true || /Exception$/.test(type)) {
      return this.stopWith({ kind: 'error', error: mapConverseStreamException(type, event.data, this.options.secrets) });
    }
    // Event types added later are skipped, as the AWS SDKs skip unknown union members.
    if (!isConverseStreamEventType(type)) return [];
    let json: unknown;
    try {
      json = JSON.parse(event.data);
    } catch {
      return this.stopWith(badEvent('The upstream provider sent a malformed stream event.'));
    }
    const parsed = ConverseStreamPayloadSchemas[type].safeParse(json);
    if (!parsed.success) return this.stopWith(badEvent(`The upstream provider sent an unexpected '${type}' event.`));
    return this.handle(type, parsed.data);
  }

  finish(): StreamStep[] {
    return [];
  }

  private handle(type: ConverseStreamEventType, payload: unknown): StreamStep[] {
    switch (type) {
      case 'messageStart':
        return this.opening();
      case 'contentBlockStart':
        return this.startBlock(payload as Payload<'contentBlockStart'>);
      case 'contentBlockDelta':
        return this.blockDelta(payload as Payload<'contentBlockDelta'>);
      case 'contentBlockStop':
        return this.stopBlock((payload as Payload<'contentBlockStop'>).contentBlockIndex);
      case 'messageStop':
        return this.messageStop((payload as Payload<'messageStop'>).stopReason);
      case 'metadata':
        return this.metadata((payload as Payload<'metadata'>).usage);
      default: {
        const unhandled: never = type;
        throw new Error(`unhandled Converse stream event ${String(unhandled)}`);
      }
    }
  }

  private startBlock({ contentBlockIndex: index, start }: Payload<'contentBlockStart'>): StreamStep[] {
    if (!start.toolUse) return [];
    const toolIndex = this.toolCount++;
    this.blocks.set(index, { kind: 'tool', toolIndex, sentArguments: false });
    const { toolUseId, name } = start.toolUse;
    return this.emit({ tool_calls: [{ index: toolIndex, id: toolUseId, type: 'function', function: { name, arguments: '' } }] });
  }

  private blockDelta({ contentBlockIndex: index, delta }: Payload<'contentBlockDelta'>): StreamStep[] {
    const block = this.blocks.get(index);
    if (delta.toolUse) {
      if (block?.kind !== 'tool') return this.stopWith(badEvent(`The upstream provider sent tool input into block ${index}, which is no tool call.`));
      if (delta.toolUse.input === '') return [];
      block.sentArguments = true;
      return this.fragment({ tool_calls: [{ index: block.toolIndex, function: { arguments: delta.toolUse.input } }] }, delta.toolUse.input);
    }
    if (delta.text !== undefined) {
      if (block && block.kind !== 'text') return this.stopWith(badEvent(`The upstream provider sent text into block ${index}.`));
      this.blocks.set(index, { kind: 'text' });
      return delta.text === '' ? [] : this.fragment({ content: delta.text }, delta.text);
    }
    const reasoning = delta.reasoningContent;
    if (!reasoning) return [];
    if (block && block.kind !== 'reasoning') return this.stopWith(badEvent(`The upstream provider sent reasoning into block ${index}.`));
    const open = block ?? { kind: 'reasoning' as const, signature: '', redacted: '' };
    this.blocks.set(index, open);
    open.signature += reasoning.signature ?? '';
    open.redacted += reasoning.redactedContent ?? '';
    const text = reasoning.text ?? '';
    return text === '' ? [] : this.fragment({ reasoning_content: text }, text);
  }

  /** A call that got no fragment still ends as valid JSON; a reasoning block ends with its signed form. */
  private stopBlock(index: number): StreamStep[] {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    if (block?.kind === 'tool' && !block.sentArguments) return this.fragment({ tool_calls: [{ index: block.toolIndex, function: { arguments: '{}' } }] }, '{}');
    if (block?.kind !== 'reasoning') return [];
    const signed: HubThinkingBlock[] = [];
    if (block.signature !== '') signed.push({ type: 'thinking', thinking: '', signature: block.signature });
    if (block.redacted !== '') signed.push({ type: 'redacted_thinking', data: block.redacted });
    return signed.length === 0 ? [] : this.emit({ [THINKING_BLOCKS_FIELD]: signed });
  }

  private messageStop(stopReason: string): StreamStep[] {
    if (this.stopped) return [];
    this.stopped = true;
    const finishReason = mapConverseStopReason(stopReason);
    if (finishReason === undefined) return this.stopWith({ kind: 'error', error: malformedOutput(stopReason) });
    return [...this.emit({}, finishReason), ...this.usageChunk()];
  }

  private metadata(usage: ConverseUsage): StreamStep[] {
    const first = this.converseUsage === undefined;
    this.converseUsage = usage;
    return first && this.stopped ? this.usageChunk() : [];
  }

  /** The usage chunk (`choices: []`), once the answer has stopped and its usage came. */
  private usageChunk(): StreamStep[] {
    if (!this.options.callerWantsUsage || !this.converseUsage || !this.stopped) return [];
    this.ended = true;
    const chunk: ChatCompletionChunk = { ...this.envelope(), choices: [], usage: convertConverseUsage(this.converseUsage).usage };
    return [{ kind: 'chunk', json: JSON.stringify(chunk) }];
  }

  private fragment(delta: Delta, text: string): StreamStep[] {
    this.deliveredSoFar.add(text);
    return this.emit(delta);
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

  private envelope(): Pick<ChatCompletionChunk, 'id' | 'object' | 'created' | 'model'> {
    return { id: this.options.id, object: 'chat.completion.chunk', created: this.options.created, model: this.options.publicModel };
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
