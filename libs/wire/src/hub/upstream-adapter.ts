import type { Adjustment } from './bridge-loss';
import type { RelayError } from '../errors/relay-error';
import type { PassthroughRun } from '../passthrough/passthrough-carriage';

/**
 * A file of a multipart upload as the relay received it: the server keeps its bytes (spooled to
 * disk, never held whole in memory) and streams them upstream; converters see only this.
 */
export interface UploadedFile {
  /** The form field it came in (`file`, `image`, `image[]`, `mask`). */
  field: string;
  filename: string;
  contentType: string;
  size: number;
  /** Opaque to the wire library: how the server finds the bytes again. */
  ref: string;
}

/** The multipart body of an upstream call: the server encodes it and streams each file's bytes. */
export interface MultipartBody {
  kind: 'multipart';
  fields: ReadonlyArray<readonly [string, string]>;
  files: ReadonlyArray<{ field: string; file: UploadedFile }>;
}

/** Method, URL, headers and body of one upstream call, whichever adapter built it. */
export interface UpstreamRequest {
  /** `POST` when absent; a `GET` (SearXNG's search, a stored response) sends no body. */
  method?: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body: string | Buffer | MultipartBody;
  /** What was accepted but cannot be honoured exactly (e.g. `strict` on Anthropic); logged. */
  warnings?: Adjustment[];
  /**
   * How a streamed answer is framed: `sse` when absent; `aws-eventstream` for Bedrock's binary
   * event stream (`application/vnd.amazon.eventstream`), decoded into the same SseEvents
   * (`event`: the message's `:event-type` or `:exception-type`, `data`: its payload) by
   * `AwsEventStreamDecoder` before the adapter's transformer sees them.
   */
  framing?: 'sse' | 'aws-eventstream';
}

/**
 * One upstream API spoken for one kind of call (SPEC §7, §7a), walked through the same short
 * lifecycle by every adapter: build the request → (the relay sends it) → convert the answer or
 * turn the stream → map a failure. Converters are pure; only the relay does I/O.
 *
 * `Args` is what the request is built from, `Context` what reading a whole answer needs (the
 * caller's model name, or an endpoint's request and content type), `Answer` what it becomes.
 * `ProviderAdapter` (chat through the hub), `NativeAdapter` (a caller dialect passed through)
 * and `EndpointAdapter` (an endpoint beside chat) are its instances.
 */
export interface UpstreamAdapter<Args, Context, Answer> {
  /**
   * The upstream call. Throws a 400 RelayError naming the parameter when the request asks for
   * something the provider cannot express (never drop it silently).
   */
  buildRequest(args: Args): UpstreamRequest;
  /** A non-streamed 2xx answer → the caller's answer, with its usage. */
  convertResponse(text: string, context: Context): Answer;
  /** A fresh transformer for one streamed answer: upstream events → the caller's events. Absent: the call cannot stream. */
  createStreamTransformer?(options: StreamTransformerOptions): StreamTransformer;
  /**
   * A non-2xx answer → a §9 error, and whether another channel may succeed; `secrets` redacted
   * from it. `upstreamModel`: what the call named upstream, for a message that names it (Azure's
   * DeploymentNotFound names the deployment and the mapping to fix).
   */
  mapErrorResponse(status: number, text: string, secrets: readonly string[], upstreamModel?: string): UpstreamFailure;
}

/** Where a channel's requests go: all an adapter needs to know of the channel. */
export interface UpstreamTarget {
  /** The provider's API root, e.g. `https://api.openai.com/v1` (no trailing slash needed). */
  baseUrl: string;
  /** A cloud channel's settings (`azure`, `bedrock`, `vertex`); absent or empty for the others. */
  cloud?: UpstreamCloud;
}

/** Where in a cloud a channel's requests go, beyond its base URL. */
export interface UpstreamCloud {
  /** Bedrock: the AWS region (`us-east-1`), signed into every request; Vertex: the location (`us-east5`, `global`). */
  region?: string;
  /** Azure: the deployments API's `api-version`; absent: the v1 API (`{base}/openai/v1/...`, model = deployment name). */
  apiVersion?: string;
}

/**
 * Usage as the upstream reported it, counted the OpenAI way: `promptTokens` is the whole prompt,
 * cache reads and cache writes included. Those two are told apart because they are priced
 * apart (absent: none, or the upstream does not say). One type for every adapter: an endpoint
 * beside chat adds its own unit (`EndpointUsage`, SPEC §8); a chat answer has none.
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
  /** An endpoint's own unit used — images made, search units, input characters or audio seconds; absent for chat. */
  units?: number;
  /** Images: how they are priced, `quality/size` (`hd/1024x1792`, `standard/1024x1024`). */
  unitVariant?: string;
  /** Some of it was counted by the adapter, not reported by the upstream. */
  estimated?: boolean;
  /**
   * Text whose tokens the upstream did not report (a Gemini embedding, a moderation): the relay
   * counts them with its tokenizer as prompt tokens, and marks the usage estimated.
   */
  uncountedText?: string;
  /** The upstream did not say how many units (audio seconds): the relay works them out from the upload. */
  unitsUnknown?: true;
}

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
  /** How long the upstream asked to be left alone (`retry-after-ms`, `retry-after` on a 429/503): set by the server from the headers. */
  retryAfterMs?: number;
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
