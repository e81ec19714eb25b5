import { upstreamError } from '../../errors/relay-error';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer, StreamTransformerOptions } from '../../hub/upstream-adapter';
import { isJsonObject } from '../../json/json-checks';
import type { PassthroughRun } from '../../passthrough/passthrough-carriage';
import { AnthropicDeltaUsageSchema, AnthropicErrorObjectSchema, AnthropicUsageSchema, type AnthropicUsage } from '../anthropic-api';
import { mapAnthropicStreamError } from '../upstream/anthropic-error';
import { convertAnthropicUsage } from '../upstream/convert-anthropic-usage';
import { mergeAnthropicUsage } from '../upstream/merge-anthropic-usage';
import { MessagesRunTally } from './tally-messages-run';

const badEvent = (message: string): StreamStep => ({ kind: 'error', error: upstreamError(message, 'bad_response') });

/** The parsed event, or undefined when it is not JSON. */
function parsedJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** The fields of an event the relay reads; everything else passes untouched. */
interface EventHead {
  type?: unknown;
  message?: { model?: unknown; usage?: unknown };
  usage?: unknown;
  delta?: { type?: unknown; text?: unknown; partial_json?: unknown; thinking?: unknown; container?: unknown };
  error?: unknown;
}

/**
 * An Anthropic stream relayed to an Anthropic caller: every event goes out as it came — the
 * same name, the same data text — except `message_start`, whose `message.model` becomes the name
 * the caller used. Usage is read from `message_start` and `message_delta` (cumulative counts,
 * cache reads and writes apart); `message_stop` completes the answer; an upstream `error` event
 * ends it as a failure (the relay writes it in the caller's dialect), as does an event whose data
 * is not JSON. Content deltas are only checked to be JSON, not read, unless usage never comes and
 * their text must be counted.
 */
export class AnthropicPassthroughStream implements StreamTransformer {
  private ended = false;
  private stopped = false;
  private startUsage: AnthropicUsage | undefined;
  private finalUsage: AnthropicUsage | undefined;
  private readonly deltas: string[] = [];
  private deliveredLength = 0;
  private readonly tally = new MessagesRunTally();

  constructor(private readonly options: StreamTransformerOptions) {}

  /** Server tool calls seen so far (a cut stream's too), the tier served and the container. */
  get ran(): PassthroughRun {
    return this.tally.run;
  }

  get complete(): boolean {
    return this.stopped;
  }

  /**
   * The counts of the last `message_delta` (or of `message_start` at `message_stop`). Before
   * that, only the prompt side is known: `message_start`'s `output_tokens` is a placeholder, so a
   * stream cut there reports its prompt and leaves the completion to be counted.
   */
  get usage(): ReportedUsage | undefined {
    if (this.finalUsage) return convertAnthropicUsage(this.finalUsage).reported;
    if (!this.startUsage) return undefined;
    return { ...convertAnthropicUsage(this.startUsage).reported, completionTokens: 0, completionUnknown: true };
  }

  get deliveredChars(): number {
    return this.deliveredLength;
  }

  /** The text and tool input delivered, read from the deltas only when asked. */
  get deliveredText(): string {
    let text = '';
    for (const data of this.deltas) {
      try {
        const delta = (JSON.parse(data) as EventHead).delta;
        const piece = delta?.text ?? delta?.partial_json ?? delta?.thinking;
        if (typeof piece === 'string') text += piece;
      } catch {
        // A malformed delta delivered nothing countable.
      }
    }
    return text;
  }

  transform(sse: SseEvent): StreamStep[] {
    if (this.ended) return [];
    const name = sse.event;
    if (name === 'content_block_delta' || name === 'ping' || name === 'content_block_start' || name === 'content_block_stop') {
      // Read no further, but never forward what is not JSON: the caller's SDK would choke on it.
      const parsed = parsedJson(sse.data);
      if (!parsed) return this.stopWith(badEvent('The upstream provider sent a malformed stream event.'));
      if (name === 'content_block_start' && isJsonObject(parsed.value)) this.tally.block(parsed.value['content_block']);
      if (name === 'content_block_delta') {
        this.deltas.push(sse.data);
        this.deliveredLength += sse.data.length;
      }
      return [{ kind: 'chunk', event: name, json: sse.data }];
    }
    let head: EventHead;
    try {
      head = JSON.parse(sse.data) as EventHead;
    } catch {
      return this.stopWith(badEvent('The upstream provider sent a malformed stream event.'));
    }
    const type = typeof head.type === 'string' ? head.type : name;
    switch (type) {
      case 'message_start':
        return this.messageStart(head, sse);
      case 'message_delta': {
        const usage = AnthropicDeltaUsageSchema.safeParse(head.usage ?? {});
        if (usage.success) this.finalUsage = mergeAnthropicUsage(this.finalUsage ?? this.startUsage, usage.data) ?? this.finalUsage;
        this.tally.usage(head.usage);
        this.tally.containerOf(head.delta?.container);
        return [{ kind: 'chunk', event: 'message_delta', json: sse.data }];
      }
      case 'message_stop':
        this.stopped = true;
        this.ended = true;
        this.finalUsage ??= this.startUsage;
        return [{ kind: 'chunk', event: 'message_stop', json: sse.data }];
      case 'error': {
        const error = AnthropicErrorObjectSchema.safeParse(head.error);
        if (!error.success) return this.stopWith(badEvent('The upstream provider sent a malformed error event.'));
        return this.stopWith({ kind: 'error', error: mapAnthropicStreamError(error.data, this.options.secrets) });
      }
      default:
        // Event types newer than this relay pass through as they came.
        return [{ kind: 'chunk', event: name ?? type ?? 'message', json: sse.data }];
    }
  }

  finish(): StreamStep[] {
    return [];
  }

  private messageStart(head: EventHead, sse: SseEvent): StreamStep[] {
    const message = head.message;
    if (!message || typeof message !== 'object') return this.stopWith(badEvent("The upstream provider sent a 'message_start' without its message."));
    const usage = AnthropicUsageSchema.safeParse(message.usage);
    if (usage.success) this.startUsage = usage.data;
    this.tally.message(message);
    if (message.model === this.options.publicModel) return [{ kind: 'chunk', event: 'message_start', json: sse.data }];
    message.model = this.options.publicModel;
    return [{ kind: 'chunk', event: 'message_start', json: JSON.stringify(head) }];
  }

  private stopWith(step: StreamStep): StreamStep[] {
    this.ended = true;
    return [step];
  }
}
