import { DEFAULT_SEARCH_MODEL, endpointsContract, SearchResponseSchema, type SearchRequest, type SearchResult } from '@chat-relay/contract';
import { internalError, permissionError, RelayError, searchAdapterFor } from '@chat-relay/wire';
import { performance } from 'node:perf_hooks';
import { settle } from '../pipeline/settle';
import { isModelAllowed } from '../policy/model-allow-list';
import type { AbortLike } from '../core/caller-gone';
import { newTrace, type RelayTrace } from '../pipeline/request-context';
import type { Caller } from '../auth/caller';
import { serveEndpoint } from '../pipeline/run-endpoint';
import type { PipelineDeps } from '../pipeline/run-pipeline';
import type { UsageRecorder } from '../pipeline/usage-recorder';

export interface HostedSearchDeps extends PipelineDeps {
  recorder: UsageRecorder;
}

/** One search the relay runs for a caller inside another request of theirs. */
export interface HostedSearch {
  caller: Caller | undefined;
  /** The request it is part of: the search's own row is `<requestId>-search` (`-search-2`, `-search-3` … for the later searches of one request). */
  requestId: string;
  /** Which search of the request this is, from 1 (the default). */
  ordinal?: number;
  clientIp: string | null;
  /** The request's own: the search stops when its caller goes away. */
  signal: AbortLike;
  search: SearchRequest;
}

export type HostedSearchOutcome = { ok: true; results: SearchResult[] } | { ok: false; error: RelayError };

/** The suffix of a hosted search's request id: its row sits beside the request's own, and says whose it is. */
export const HOSTED_SEARCH_ID_SUFFIX = '-search';

/**
 * A web search on the caller's behalf, as `POST /v1/search` with model `web-search` would run it —
 * the token's model allow-list, a search channel chosen by routing (retries, circuit breaker,
 * rejected keys disabled), the token's quota reserved for one query — with its own usage row
 * (endpoint `search`, one unit, request id `<requestId>-search`, numbered from the second). Never throws: a failure is the
 * outcome, and leaves a row only when it reserved quota or reached an upstream.
 */
export async function runHostedSearch(deps: HostedSearchDeps, hosted: HostedSearch): Promise<HostedSearchOutcome> {
  const ordinal = hosted.ordinal ?? 1;
  const trace = newTrace(`${hosted.requestId}${HOSTED_SEARCH_ID_SUFFIX}${ordinal > 1 ? `-${ordinal}` : ''}`, performance.now(), 'search');
  trace.requestedModel = DEFAULT_SEARCH_MODEL;
  trace.clientIp = hosted.clientIp;
  let outcome: HostedSearchOutcome;
  try {
    outcome = { ok: true, results: await search(deps, hosted, trace) };
  } catch (error) {
    outcome = { ok: false, error: error instanceof RelayError ? error : internalError() };
    if (!(error instanceof RelayError)) deps.logger.error({ requestId: trace.requestId, err: error }, 'hosted web search failed');
  }
  if (trace.attempts > 0 || trace.quotaReserved > 0 || trace.windowsReserved) await recordRow(deps, trace, hosted.caller, outcome);
  return outcome;
}

async function search(deps: HostedSearchDeps, hosted: HostedSearch, trace: RelayTrace): Promise<SearchResult[]> {
  const { caller } = hosted;
  if (caller?.kind === 'token' && !isModelAllowed(caller.token.models, DEFAULT_SEARCH_MODEL)) {
    throw permissionError('model_not_allowed', `This API key is not allowed to use the model '${DEFAULT_SEARCH_MODEL}' (the web search).`);
  }
  const result = await serveEndpoint<SearchRequest>(
    deps,
    { trace, caller, signal: () => hosted.signal },
    {
      endpoint: 'search',
      route: 'the web_search tool of /v1/responses',
      model: DEFAULT_SEARCH_MODEL,
      request: hosted.search,
      stream: false,
      adapterFor: searchAdapterFor,
      bound: () => ({ promptTokens: 0, completionTokens: 0, units: 1 }),
      lower: 'nothing to lower: a search is one query',
    },
  );
  // The adapters answer search.result objects: anything else is the relay's own bug.
  const answer = SearchResponseSchema.parse(result.kind === 'json' ? result.body : undefined);
  return answer.results;
}

/** The search's row, settled as a request's is (pipeline/settle.ts): against its reservation. Never rejects. */
async function recordRow(deps: HostedSearchDeps, trace: RelayTrace, caller: Caller | undefined, outcome: HostedSearchOutcome): Promise<void> {
  try {
    const ended = {
      status: outcome.ok ? 200 : outcome.error.status,
      errorCode: outcome.ok ? null : (outcome.error.code ?? outcome.error.type),
      clientIp: trace.clientIp,
    };
    // Counted under /v1/search: that is the endpoint it used. Its tokens are the request's it runs in.
    await settle(deps, { trace, caller, outcome: () => ended, route: endpointsContract.search, holdsTpm: false });
  } catch (error) {
    deps.logger.error({ requestId: trace.requestId, err: error }, 'usage row of a hosted web search not written');
  }
}
