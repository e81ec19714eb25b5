import type { ChatCompletionRequest } from '@chat-relay/contract';
import type { RelayError } from '../errors/relay-error';
import type { ModelFacts } from '../models/model-catalogue';
import type { PassthroughRun } from '../passthrough/passthrough-carriage';
import type { ReportedUsage, UpstreamAdapter, UpstreamTarget } from './upstream-adapter';

/**
 * Chat through the hub (SPEC §7): the hub request → the provider's request, its answer → an
 * OpenAI `chat.completion` with `model: publicModel` (the context), its stream → hub chunks.
 */
export type ProviderAdapter = UpstreamAdapter<BuildRequestArgs, string, ConvertedCompletion> & Required<Pick<UpstreamAdapter<BuildRequestArgs, string, ConvertedCompletion>, 'createStreamTransformer'>>;

export interface BuildRequestArgs {
  channel: UpstreamTarget;
  key: string;
  /** The caller's request (assistant already applied). */
  request: ChatCompletionRequest;
  /** The model name to send upstream (after the channel's mapping). */
  upstreamModel: string;
  /** What the catalogue knows of the upstream model, for an adapted request (how it thinks, its output limit). */
  model?: ModelFacts | undefined;
  /**
   * The caller's body exactly as received, given only when `request` is what it parsed to (no
   * assistant applied): an adapter that needs no translation may forward these bytes as they are.
   */
  rawBody?: Buffer;
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
