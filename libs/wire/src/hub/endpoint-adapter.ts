import type { Endpoint } from '@chat-relay/contract';
import type { RelayError } from '../errors/relay-error';
import type { ReportedUsage, UploadedFile, UpstreamAdapter, UpstreamTarget } from './upstream-adapter';

/**
 * What one request of an endpoint other than chat used (SPEC §8): the one usage type with its
 * unit always said — tokens where the endpoint counts them (completions, embeddings, moderations,
 * token-priced image and audio models) and the endpoint's own unit (0 when it has none).
 */
export type EndpointUsage = ReportedUsage & { units: number };

/** A multipart request as parsed: its text fields, in order (a name may repeat), and its files. */
export interface MultipartRequest {
  fields: ReadonlyArray<readonly [string, string]>;
  files: readonly UploadedFile[];
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
      /**
       * `body` already serialised — an upstream's own text with its model rewritten, or a large
       * answer's bytes as they came (see convertLargeResponse) — sent as is.
       */
      text?: string | Buffer;
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
export interface EndpointAdapter<Req = Record<string, unknown>> extends UpstreamAdapter<EndpointBuildArgs<Req>, EndpointAnswerContext<Req>, EndpointAnswer> {
  endpoint: Endpoint;
  /**
   * Set for an endpoint whose answer is bytes passed through as they come (speech audio): the
   * usage is known from the request alone. `convertResponse` is then not called.
   */
  binary?: { usage(request: Req): EndpointUsage };
  /**
   * A large answer (past LARGE_ANSWER_BYTES) read from its bytes and passed through as they came,
   * never made a string; undefined when it cannot be (it is then read with `convertResponse`).
   */
  convertLargeResponse?(bytes: Buffer, context: EndpointAnswerContext<Req>): EndpointAnswer | undefined;
}
