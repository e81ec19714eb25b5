import type { ConvertedCompletion, StreamTransformer, StreamTransformerOptions, UpstreamFailure, UpstreamRequest, UpstreamTarget } from './provider-adapter';

/** What a passthrough call is made of: the caller's own request, in the channel's own dialect. */
export interface NativeBuildArgs {
  channel: UpstreamTarget;
  key: string;
  /** The caller's request as parsed (an assistant already applied), its model not yet mapped. */
  body: Readonly<Record<string, unknown>>;
  /** The caller's bytes, given only when `body` is exactly what they parsed to: forwarded as they are. */
  rawBody?: Buffer;
  upstreamModel: string;
  /** The dialect's own headers as the caller sent them (e.g. `anthropic-version`, `anthropic-beta`). */
  headers: Readonly<Record<string, string>>;
  stream: boolean;
}

/**
 * A channel that speaks the caller's dialect: the request and the answer pass through, only the
 * model name rewritten (and usage read on the way). Answers come back in the caller's dialect,
 * not as hub completions; errors are mapped like the channel type's ProviderAdapter maps them.
 */
export interface NativeAdapter {
  buildRequest(args: NativeBuildArgs): UpstreamRequest;
  /** A non-streamed 2xx body → the same body with `model: publicModel`, and its usage. */
  convertResponse(text: string, publicModel: string): ConvertedCompletion;
  /** Relays each upstream event as it came, model rewritten, usage read. */
  createStreamTransformer(options: StreamTransformerOptions): StreamTransformer;
  mapErrorResponse(status: number, text: string, secrets: readonly string[]): UpstreamFailure;
}
