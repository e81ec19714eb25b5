import type { FuzzContext } from './fuzz-context';
import { responsesRouteOf } from './check-responses-answer';
import type { RawOutcome, RawRequest } from './raw-http';
import { tokenUsage } from './responses-fixtures';

/** The key headers a request carries. */
export const authOf = (request: RawRequest) => request.headers.filter(([name]) => /^(authorization|x-api-key)$/i.test(name));

/**
 * Whether a request reached the pipeline as the Responses family's token: `POST /v1/responses`
 * with that token alone, answered by Express (its x-request-id) — exactly the requests the usage
 * log writes a row for, whatever became of them after.
 */
export function reachedResponsesPipeline(context: FuzzContext, request: RawRequest, outcome: RawOutcome): boolean {
  if (responsesRouteOf(request) !== 'create' || outcome.kind !== 'response' || outcome.response.headers['x-request-id'] === undefined) return false;
  const keys = authOf(request);
  return keys.length === 1 && keys[0]?.[0].toLowerCase() === 'authorization' && keys[0][1] === `Bearer ${context.responses.token}`;
}

export interface ResponsesAccounting {
  /**
   * Stops watching; once the rows of `reached` requests are written (or 10 s passed), the
   * problems seen: a usage row count other than `reached`, charges that went down, quota held
   * below what was charged, or quota left over once nothing is in flight.
   */
  finish(reached: number): Promise<string[]>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Watches the Responses family's money while a run goes on (its token and account are its own):
 * every ~250 ms the cost of its usage rows, then its token's and account's `quota_used`. The
 * cost must never go down, and each quota never below it (a reservation holds more until its
 * row settles it, in the same transaction); once the run is over, each quota equals the cost.
 */
export async function watchResponsesAccounting(url: string, context: FuzzContext): Promise<ResponsesAccounting> {
  const { adminKey } = context;
  const { tokenId, accountId } = context.responses;
  const quotaOf = async (path: string): Promise<number> => {
    const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${adminKey}` } });
    return ((await response.json()) as { quota_used: number }).quota_used;
  };
  const sample = async () => {
    const usage = await tokenUsage(url, adminKey, tokenId);
    return { usage, token: await quotaOf(`/api/tokens/${tokenId}`), account: await quotaOf(`/api/accounts/${accountId}`) };
  };

  const baseline = await sample();
  const problems = new Set<string>();
  let lastCost = baseline.usage.cost;
  const check = (seen: Awaited<ReturnType<typeof sample>>) => {
    if (seen.usage.cost < lastCost) problems.add(`responses usage cost went down from ${lastCost} to ${seen.usage.cost}`);
    lastCost = Math.max(lastCost, seen.usage.cost);
    if (seen.token < seen.usage.cost) problems.add(`responses token quota_used ${seen.token} below the cost of its rows ${seen.usage.cost}`);
    if (seen.account < seen.usage.cost) problems.add(`responses account quota_used ${seen.account} below the cost of its rows ${seen.usage.cost}`);
  };

  let watching = true;
  const sampler = (async () => {
    while (watching) {
      await sleep(250);
      try {
        check(await sample());
      } catch (error) {
        problems.add(`reading the responses accounting failed: ${String(error)}`);
      }
    }
  })();

  return {
    finish: async (reached) => {
      watching = false;
      await sampler;
      const deadline = Date.now() + 10_000;
      let last = await sample();
      // Rows are written when answers close and flushed in batches; settled quota follows with them.
      while ((last.usage.requests - baseline.usage.requests < reached || last.token !== last.usage.cost || last.account !== last.usage.cost) && Date.now() < deadline) {
        await sleep(50);
        last = await sample();
      }
      check(last);
      const rows = last.usage.requests - baseline.usage.requests;
      if (rows !== reached) problems.add(`${rows} responses usage rows for ${reached} requests that reached the pipeline`);
      if (last.token !== last.usage.cost) problems.add(`responses token quota_used ${last.token} ≠ its rows' cost ${last.usage.cost} once idle`);
      if (last.account !== last.usage.cost) problems.add(`responses account quota_used ${last.account} ≠ its rows' cost ${last.usage.cost} once idle`);
      return [...problems];
    },
  };
}
