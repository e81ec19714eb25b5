import type { Endpoint, HostedToolKind, UsageEndpoint } from '@chat-relay/contract';
import type { Adjustment } from '@chat-relay/wire';
import type { CallerGone } from '../core/caller-gone';

/**
 * What a relayed request did, filled in along the way and written as one usage log row when
 * the response closes (SPEC §8).
 */
export interface RelayTrace {
  requestId: string;
  startedAt: number;
  requestedModel: string | null;
  /** The public name prices are looked up by with the upstream model: the model routed (a gizmo name's family). */
  pricedModel: string | null;
  /** Which price charged it (`gpt-4o* (table)`, `gpt-4o (catalogue)`), set at settlement; null: none did. */
  pricedBy: string | null;
  upstreamModel: string | null;
  channelId: number | null;
  assistantId: string | null;
  stream: boolean;
  attempts: number;
  /** The whole prompt, cache reads and writes included (as OpenAI counts it). */
  promptTokens: number;
  completionTokens: number;
  /** Of `promptTokens`, those read from and written to the provider's prompt cache: priced apart. */
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** What the route asks for (its contract metadata): decides the unit priced besides tokens; count_tokens for a token count. */
  endpoint: UsageEndpoint;
  /** The endpoint's own unit used: images, search units, speech characters, audio seconds. */
  units: number;
  /** Images: the `quality/size` they are priced by. */
  unitVariant: string | null;
  /** Hosted tool calls a passthrough answer ran, by kind: priced per call, their sum is `units` (issue 26). */
  hostedToolCalls: Partial<Record<HostedToolKind, number>> | null;
  /** The premium tier the answer was served at, priced as a multiple of its tokens; null: the standard one. */
  serviceTier: string | null;
  /** Of `completionTokens`, those of an audio answer (priced at `audio_output`). */
  audioOutputTokens: number;
  usageEstimated: boolean;
  /** Micro-USD taken from the quota before the upstream call, settled against the cost. */
  quotaReserved: number;
  /** The reservation also counted in periodic windows (issue 32): its row settles them even when `quotaReserved` is 0. */
  windowsReserved: boolean;
  ttfbMs: number | null;
  /** Set when the answer failed after its status was sent (a broken stream) or was never sent. */
  errorCode: string | null;
  statusOverride: number | null;
  /** Resolves once a streamed answer has ended and its usage is known (a Settlement, or a background answer's usage). */
  settled: PromiseLike<void> | null;
  /** Aborted when the caller goes away before the answer is complete. */
  callerGone: CallerGone | null;
  /** The caller's address as policy saw it (`req.ip`), worked out once. */
  clientIp: string | null;
  /** The request only counted tokens (count_tokens): its tokens are not charged nor held against the token's tpm. */
  countOnly: boolean;
  /**
   * The request submitted a long-running task: its usage row is the task's, written (and its
   * reservation settled) when the task ends, not when this response closes.
   */
  deferredToTask: boolean;
  /** The models a fallback chain tried before the one that served, and it (`a>b`); null when the requested model served (issue 32). */
  fallbackPath: string | null;
  /** What the relay changed in the attempt's adapted request so its model takes it (issue 28); set by each chat attempt. */
  adjustments?: readonly Adjustment[];
}

export const newTrace = (requestId: string, startedAt: number, endpoint: Endpoint = 'chat'): RelayTrace => ({
  requestId,
  startedAt,
  requestedModel: null,
  pricedModel: null,
  pricedBy: null,
  upstreamModel: null,
  channelId: null,
  assistantId: null,
  stream: false,
  attempts: 0,
  promptTokens: 0,
  completionTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  endpoint,
  units: 0,
  unitVariant: null,
  hostedToolCalls: null,
  serviceTier: null,
  audioOutputTokens: 0,
  usageEstimated: false,
  quotaReserved: 0,
  windowsReserved: false,
  ttfbMs: null,
  errorCode: null,
  statusOverride: null,
  settled: null,
  callerGone: null,
  clientIp: null,
  countOnly: false,
  deferredToTask: false,
  fallbackPath: null,
  // Present from the start, so setting it on the hot path keeps the object's shape.
  adjustments: undefined,
});

declare module 'express-serve-static-core' {
  interface Locals {
    requestId: string;
    trace?: RelayTrace;
  }
}
