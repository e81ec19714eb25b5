import type { AccountRecord, TokenRecord } from '../storage/types';

/** Who is calling, set by the auth middleware. */
export type Caller = { kind: 'token'; token: TokenRecord } | { kind: 'admin'; account: AccountRecord };

/**
 * What a relayed request did, filled in along the way and written as one usage log row when
 * the response closes (SPEC §8).
 */
export interface RelayTrace {
  requestId: string;
  startedAt: number;
  requestedModel: string | null;
  upstreamModel: string | null;
  channelId: number | null;
  assistantId: string | null;
  stream: boolean;
  attempts: number;
  promptTokens: number;
  completionTokens: number;
  usageEstimated: boolean;
  ttfbMs: number | null;
  /** Set when the answer failed after its status was sent (a broken stream) or was never sent. */
  errorCode: string | null;
  statusOverride: number | null;
  /** Resolves once a streamed answer has ended and its usage is known. */
  settled: Promise<void> | null;
}

export const newTrace = (requestId: string, startedAt: number): RelayTrace => ({
  requestId,
  startedAt,
  requestedModel: null,
  upstreamModel: null,
  channelId: null,
  assistantId: null,
  stream: false,
  attempts: 0,
  promptTokens: 0,
  completionTokens: 0,
  usageEstimated: false,
  ttfbMs: null,
  errorCode: null,
  statusOverride: null,
  settled: null,
});

declare module 'express-serve-static-core' {
  interface Locals {
    requestId: string;
    caller?: Caller;
    trace?: RelayTrace;
  }
}
