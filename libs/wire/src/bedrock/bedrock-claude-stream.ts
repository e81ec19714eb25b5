import { z } from 'zod';
import { upstreamError, type RelayError } from '../errors/relay-error';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer } from '../hub/upstream-adapter';
import { isJsonObject } from '../json/json-checks';
import type { PassthroughRun } from '../passthrough/passthrough-carriage';
import { mapBedrockStreamException } from './bedrock-error';

/** What Bedrock adds to Claude's last event: its own counts and latencies, for AWS's metrics, not the caller's. */
export const INVOCATION_METRICS = 'amazon-bedrock-invocationMetrics';

/** A `chunk` event's payload: `bytes`, one Anthropic event as base64 JSON (`p`, padding, ignored). */
const ChunkSchema = z.object({ bytes: z.string() }).passthrough();

const badChunk = (): StreamStep => ({ kind: 'error', error: upstreamError('The upstream provider sent a malformed stream event.', 'bad_response') });

/** The Anthropic event inside a chunk's payload, its invocation metrics cut off; undefined when it is not one. */
export function anthropicEventOfChunk(data: string): SseEvent | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return undefined;
  }
  const chunk = ChunkSchema.safeParse(payload);
  if (!chunk.success) return undefined;
  const text = Buffer.from(chunk.data.bytes, 'base64').toString('utf8');
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(event) || typeof event['type'] !== 'string') return undefined;
  if (!(INVOCATION_METRICS in event)) return { event: event['type'], data: text };
  const { [INVOCATION_METRICS]: _metrics, ...rest } = event;
  return { event: event['type'], data: JSON.stringify(rest) };
}

/**
 * Claude's stream on Bedrock (InvokeModelWithResponseStream), its AWS event stream already
 * decoded into events by the server (`AwsEventStreamDecoder`), turned back into Anthropic's own
 * events for `inner` — the Anthropic transformer the caller's dialect needs (the hub's, or the
 * Messages passthrough's): each `chunk`'s `bytes` is one Anthropic event, whose type becomes the
 * event name; the last one's `amazon-bedrock-invocationMetrics` is cut off (usage is read from
 * `message_start` and `message_delta`, as Anthropic's). An exception message ends the stream as a
 * failure (see mapBedrockStreamException); a chunk that is not base64 JSON of an event ends it as
 * a malformed answer. Events of another kind carry nothing for Claude and are skipped.
 */
export class BedrockClaudeStream implements StreamTransformer {
  private ended = false;
  /** The inner dialect's own failure events, when it has them. */
  readonly fail?: (error: RelayError) => StreamStep[];

  constructor(
    private readonly inner: StreamTransformer,
    private readonly secrets: readonly string[],
  ) {
    const innerFail = inner.fail?.bind(inner);
    if (innerFail) this.fail = innerFail;
  }

  get complete(): boolean {
    return this.inner.complete;
  }

  get usage(): ReportedUsage | undefined {
    return this.inner.usage;
  }

  get deliveredChars(): number {
    return this.inner.deliveredChars;
  }

  get deliveredText(): string {
    return this.inner.deliveredText;
  }

  get ran(): PassthroughRun | undefined {
    return this.inner.ran;
  }

  transform(event: SseEvent): StreamStep[] {
    if (this.ended) return [];
    if ('exception' in event && event.exception === true) {
      this.ended = true;
      return [{ kind: 'error', error: mapBedrockStreamException(event.event ?? 'unknownException', event.data, this.secrets) }];
    }
    if (event.event !== 'chunk') return [];
    const anthropic = anthropicEventOfChunk(event.data);
    if (!anthropic) {
      this.ended = true;
      return [badChunk()];
    }
    const steps = this.inner.transform(anthropic);
    if (steps.some((step) => step.kind === 'error')) this.ended = true;
    return steps;
  }

  finish(): StreamStep[] {
    return this.inner.finish();
  }
}
