import type { Endpoint } from '@chat-relay/contract';
import type { RelayError } from '../errors/relay-error';
import type { StreamTransformer, StreamTransformerOptions, UpstreamFailure, UpstreamTarget } from './provider-adapter';

/**
 * What one request of an endpoint other than chat used (SPEC §8): tokens where the endpoint
 * counts them (completions, embeddings, moderations, token-priced image and audio models) and the
 * endpoint's own unit — images, rerank search units, speech input characters, seconds of audio.
 */
export interface EndpointUsage {
  promptTokens: number;
  completionTokens: number;
  /** Images made, search units, input characters or audio seconds; 0 when the endpoint has none. */
  units: number;
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

/** A multipart request as parsed: its text fields, in order (a name may repeat), and its files. */
export interface MultipartRequest {
  fields: ReadonlyArray<readonly [string, string]>;
  files: readonly UploadedFile[];
}

/** The multipart body of an upstream call: the server encodes it and streams each file's bytes. */
export interface MultipartBody {
  kind: 'multipart';
  fields: ReadonlyArray<readonly [string, string]>;
  files: ReadonlyArray<{ field: string; file: UploadedFile }>;
}

/** URL, headers and body of one upstream call for an endpoint. */
export interface EndpointUpstreamRequest {
  /** `POST` when absent; a `GET` (SearXNG's search) sends no body. */
  method?: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body: string | Buffer | MultipartBody;
  /** What was accepted but is not passed on exactly; logged. */
  warnings?: string[];
}

export interface EndpointBuildArgs<Req> {
  channel: UpstreamTarget;
  key: string;
  /** The caller's request as parsed (a JSON body, or a MultipartRequest), its model not yet mapped. */
  request: Req;
  upstreamModel: string;
  /** The caller's JSON bytes, when `request` is exactly what they parsed to: forwarded as they are when nothing changes. */
  rawBody?: Buffer;
}

/** A complete 2xx answer as the caller gets it, with what it used. */
export type EndpointAnswer =
  | {
      ok: true;
      kind: 'json';
      body: Record<string, unknown>;
      /** `body` already serialised (an upstream's own text, model rewritten): sent as is. */
      text?: string;
      usage: EndpointUsage;
    }
  /** A text answer that is not JSON (a transcription as `text`, `srt` or `vtt`). */
  | { ok: true; kind: 'text'; contentType: string; text: string; usage: EndpointUsage }
  | { ok: false; error: RelayError };

export interface EndpointAnswerContext<Req> {
  request: Req;
  /** The model name the caller used: answers carry it, not the upstream's. */
  publicModel: string;
  /** The upstream answer's `content-type`, lower-cased, without parameters. */
  contentType: string | undefined;
}

/**
 * One endpoint spoken to one channel type (SPEC §7a): the request built (passed through, or
 * translated for a provider with a counterpart), the answer read back in OpenAI's format with
 * its usage. Pure: the relay sends, streams and accounts.
 */
export interface EndpointAdapter<Req = Record<string, unknown>> {
  endpoint: Endpoint;
  /** Throws a 400 RelayError naming the parameter the provider cannot express. */
  buildRequest(args: EndpointBuildArgs<Req>): EndpointUpstreamRequest;
  /** A non-streamed 2xx answer (JSON or text) → the caller's answer. Not called for `binary` adapters. */
  convertResponse(text: string, context: EndpointAnswerContext<Req>): EndpointAnswer;
  /**
   * Set for an endpoint whose answer is bytes passed through as they come (speech audio): the
   * usage is known from the request alone.
   */
  binary?: { usage(request: Req): EndpointUsage };
  /** For a streamed request (completions with `stream: true`): upstream events → the caller's events. */
  createStreamTransformer?(options: StreamTransformerOptions): StreamTransformer;
  mapErrorResponse(status: number, text: string, secrets: readonly string[]): UpstreamFailure;
}
