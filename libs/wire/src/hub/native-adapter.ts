import type { ConvertedCompletion } from './provider-adapter';
import type { UpstreamAdapter, UpstreamTarget } from './upstream-adapter';

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
 * Its answer's context is the caller's model name: the body comes back with it, and its usage.
 */
export type NativeAdapter = UpstreamAdapter<NativeBuildArgs, string, ConvertedCompletion> &
  Required<Pick<UpstreamAdapter<NativeBuildArgs, string, ConvertedCompletion>, 'createStreamTransformer'>>;
