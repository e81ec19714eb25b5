import type { StreamTransformer, StreamTransformerOptions, UpstreamFailure } from './provider-adapter';

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
  warnings?: string[];
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
  /** A non-2xx answer → a §9 error, and whether another channel may succeed; `secrets` redacted from it. */
  mapErrorResponse(status: number, text: string, secrets: readonly string[]): UpstreamFailure;
}
