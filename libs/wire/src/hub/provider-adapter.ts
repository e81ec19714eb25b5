import type { ChatCompletionRequest } from '@chat-relay/contract';
import type { RelayError } from '../errors/relay-error';
import type { PassthroughRun } from '../passthrough/passthrough-carriage';

/**
 * One upstream wire format (SPEC §7), walked through the same short lifecycle for every
 * provider: build the request → (the relay sends it) → convert the answer or the stream →
 * report usage. Converters are pure; only the relay does I/O.
 */
export interface ProviderAdapter {
  /**
   * URL, headers and body of the upstream call. Throws a 400 RelayError naming the parameter
   * when the request asks for something the provider cannot express (never drop it silently).
   */
  buildRequest(args: BuildRequestArgs): UpstreamRequest;
  /** A non-streamed 2xx body → an OpenAI `chat.completion` with `model: publicModel`. */
  convertResponse(text: string, publicModel: string): ConvertedCompletion;
  /** A fresh transformer for one streamed answer. */
  createStreamTransformer(options: StreamTransformerOptions): StreamTransformer;
  /** A non-2xx answer → a §9 error, and whether another channel may succeed. */
  mapErrorResponse(status: number, text: string, secrets: readonly string[]): UpstreamFailure;
}

/** Where a channel's requests go: all an adapter needs to know of the channel. */
export interface UpstreamTarget {
  /** The provider's API root, e.g. `https://api.openai.com/v1` (no trailing slash needed). */
  baseUrl: string;
}

export interface BuildRequestArgs {
  channel: UpstreamTarget;
  key: string;
  /** The caller's request (assistant already applied). */
  request: ChatCompletionRequest;
  /** The model name to send upstream (after the channel's mapping). */
  upstreamModel: string;
  /**
   * The caller's body exactly as received, given only when `request` is what it parsed to (no
   * assistant applied): an adapter that needs no translation may forward these bytes as they are.
   */
  rawBody?: Buffer;
}

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
  /** What was accepted but cannot be honoured exactly (e.g. `strict` on Anthropic); logged. */
  warnings?: string[];
}

/**
 * Usage as the upstream reported it, counted the OpenAI way: `promptTokens` is the whole prompt,
 * cache reads and cache writes included. Those two are told apart because they are priced
 * apart (absent: none, or the upstream does not say).
 */
export interface ReportedUsage {
  promptTokens: number;
  completionTokens: number;
  /** Of `promptTokens`, those read from the provider's prompt cache. */
  cacheReadTokens?: number;
  /** Of `promptTokens`, those written to the provider's prompt cache. */
  cacheWriteTokens?: number;
  /** Of `completionTokens`, those of an audio answer: priced apart (`audio_output`). */
  audioOutputTokens?: number;
  /**
   * The stream ended before the provider said how many tokens it wrote (cut, aborted, failed):
   * the prompt side is the provider's count, `completionTokens` is not — the relay counts what
   * was delivered instead.
   */
  completionUnknown?: true;
}

export type ConvertedCompletion =
  | {
      ok: true;
      body: Record<string, unknown>;
      /** `body` already serialised, when the adapter has it (an upstream's own text): sent as is. */
      text?: string;
      usage: ReportedUsage | undefined;
      deliveredChars: number;
      /** A passthrough answer's hosted tool calls, served tier and created objects (native adapters). */
      ran?: PassthroughRun;
    }
  | { ok: false; error: RelayError };

export interface UpstreamFailure {
  error: RelayError;
  /** Another channel may succeed: the failure is the channel's, not the request's. */
  retryable: boolean;
  /** Says the channel may be unhealthy (5xx, 429, timeout, connection): reported to its circuit. */
  channelFault: boolean;
  /** The upstream refused the key itself (401/403): that key is disabled, another one tried. */
  keyRejected?: boolean;
  /** No request can cause it (connection refused, connect timeout): evidence from no caller in particular. */
  callerIndependent?: boolean;
  /** No response headers within `first_byte_ms`: for an unstreamed answer, partly its length. */
  firstByteTimeout?: boolean;
}

export interface StreamTransformerOptions {
  /** The model name every chunk carries: the one the caller sent. */
  publicModel: string;
  /** `stream_options.include_usage`: emit the final usage chunk (`choices: []`). */
  callerWantsUsage: boolean;
  /** Upstream keys, never to be repeated in an error message. */
  secrets: readonly string[];
}

/** One parsed upstream SSE event. */
export interface SseEvent {
  /** The `event:` field, when the provider sends one (Anthropic does). */
  event?: string;
  data: string;
}

/** What one upstream event becomes for the caller: a serialised event of the caller's dialect, or a failure. */
export type StreamStep =
  /** `event` names the SSE event for dialects that send one (Anthropic); chat chunks have none. */
  | { kind: 'chunk'; json: string; event?: string }
  | { kind: 'error'; error: RelayError };

export interface StreamTransformer {
  /** One upstream event → zero or more steps for the caller. */
  transform(event: SseEvent): StreamStep[];
  /** The upstream body ended: the last steps (e.g. a usage chunk), if any. */
  finish(): StreamStep[];
  /** True once the upstream has said the answer is complete ([DONE], message_stop, a finish reason). */
  readonly complete: boolean;
  /** Usage the upstream reported, once known. */
  readonly usage: ReportedUsage | undefined;
  /** Characters of content and tool arguments delivered. */
  readonly deliveredChars: number;
  /** The content and tool arguments delivered, counted with a tokenizer when no usage comes. */
  readonly deliveredText: string;
  /** A passthrough stream's hosted tool calls, served tier and created objects so far (native transformers). */
  readonly ran?: PassthroughRun;
  /**
   * The caller dialect's own failure events for a stream that broke after it started (a bridged
   * stream whose dialect has them, e.g. Responses' `response.failed`): written instead of the
   * framing's generic error event. Absent: the framing's error event is written.
   */
  fail?(error: RelayError): StreamStep[];
}
