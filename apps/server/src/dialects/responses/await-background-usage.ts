import { readResponsesUsage, tallyResponsesRun } from '@chat-relay/wire';
import type { Logger } from '../../logger';
import { CallerGone } from '../../core/caller-gone';
import { sendResponsesCall } from './native-response-call';
import { chargePassthrough } from '../../pipeline/passthrough/plan-passthrough';
import type { ServedBy } from '../../pipeline/relay-chat-completion';
import type { RelayTrace } from '../../pipeline/request-context';
import type { OpenStreams } from '../../pipeline/stream/open-streams';
import type { UpstreamClient } from '../../channels/upstream/upstream-client';

/** Statuses after which a response's usage is final. */
const TERMINAL = new Set(['completed', 'incomplete', 'failed', 'cancelled']);

export interface BackgroundUsagePolls {
  /** First wait before asking again; doubled each time up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** After this long the estimate stands (the row says so: usage_estimated). */
  giveUpAfterMs: number;
}

export const BACKGROUND_USAGE_POLLS: BackgroundUsagePolls = { firstDelayMs: 200, maxDelayMs: 10_000, giveUpAfterMs: 3_600_000 };

/** Whether a native answer is a background response still running: its usage is not known yet. */
export const isUnfinishedBackground = (status: unknown): boolean => status === 'queued' || status === 'in_progress';

/**
 * A native `background` response answers at once, `queued`, with no usage: what it costs is
 * known only when it ends. Its usage row (and the quota reservation behind it) waits for that:
 * the relay asks the channel that runs it, with the key that created it, until the response
 * reaches a final status, then charges the usage and the hosted calls the channel reports. Never rejects; after
 * `giveUpAfterMs`, or when the channel cannot be asked, the estimate already in the trace stands.
 */
export async function awaitBackgroundUsage(
  deps: { upstream: UpstreamClient; logger: Logger; openStreams?: OpenStreams },
  served: ServedBy,
  responseId: string,
  trace: RelayTrace,
  options: BackgroundUsagePolls = BACKGROUND_USAGE_POLLS,
): Promise<void> {
  const path = `/responses/${encodeURIComponent(responseId)}`;
  const deadline = Date.now() + options.giveUpAfterMs;
  // A shutdown does not wait for it: the estimate stands, and the row is written now.
  const stopped = new CallerGone();
  const open = { shutDown: () => stopped.abort() };
  deps.openStreams?.add(open);
  try {
    for (let delay = options.firstDelayMs; Date.now() < deadline && !stopped.aborted; delay = Math.min(delay * 2, options.maxDelayMs)) {
      await pause(delay, stopped);
      if (stopped.aborted) break;
      if (await askOnce(deps, served, path, trace, stopped)) return;
    }
    deps.logger.warn({ requestId: trace.requestId }, 'background response did not finish in time; its usage stays estimated');
  } finally {
    deps.openStreams?.delete(open);
  }
}

const pause = (ms: number, stopped: CallerGone): Promise<void> =>
  new Promise((resolve) => {
    // Unreferenced: a process with nothing else to do does not stay up for this.
    const timer = setTimeout(resolve, ms).unref();
    stopped.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** One look at the response: true when the question is answered (usage read, or unreadable). */
async function askOnce(
  deps: { upstream: UpstreamClient; logger: Logger },
  served: ServedBy,
  path: string,
  trace: RelayTrace,
  signal: CallerGone,
): Promise<boolean> {
  try {
    const { status: httpStatus, text } = await sendResponsesCall(deps.upstream, served.channel.record, served.key, { method: 'GET', path }, signal);
    if (httpStatus >= 400) {
      deps.logger.warn({ requestId: trace.requestId, status: httpStatus }, 'background response could not be read; its usage stays estimated');
      return true;
    }
    const body: unknown = JSON.parse(text);
    const status = typeof body === 'object' && body !== null ? (body as { status?: unknown }).status : undefined;
    if (!TERMINAL.has(String(status))) return false;
    const usage = readResponsesUsage((body as { usage?: unknown }).usage);
    if (usage) {
      trace.promptTokens = usage.promptTokens;
      trace.completionTokens = usage.completionTokens;
      trace.cacheReadTokens = usage.cacheReadTokens ?? 0;
      trace.cacheWriteTokens = usage.cacheWriteTokens ?? 0;
      trace.usageEstimated = false;
    }
    // What it ran is known only now too: its hosted calls, and the tier it says served it (else the one asked).
    const asked = trace.serviceTier;
    const run = tallyResponsesRun(body);
    chargePassthrough(trace, undefined, run);
    if (run.serviceTier === undefined) trace.serviceTier = asked;
    return true;
  } catch (error) {
    // The channel cannot be reached (or answered nonsense): asking again for an hour would not help.
    deps.logger.warn({ requestId: trace.requestId, err: error }, 'asking for a background response failed; its usage stays estimated');
    return true;
  }
}
