import type { ChatCompletionRequest, ResponseWebSearchCall } from '@chat-relay/contract';
import { webSearchCallItem, withWebSearchSources, type NewItemId, type WebSearchOutcome, type WebSearchPlan } from '@chat-relay/wire';
import type { AbortLike } from '../core/caller-gone';
import type { Caller } from '../auth/caller';
import { runHostedSearch, type HostedSearchDeps } from './run-hosted-search';

export interface BridgedWebSearchContext {
  caller: Caller | undefined;
  requestId: string;
  clientIp: string | null;
  newId: NewItemId;
}

/** The web search of one bridged Response: run before its first bridged attempt, shown in its output. */
export interface BridgedWebSearch {
  /** The hub request with the search's sources (the search run the first time only). */
  beforeBridged(request: ChatCompletionRequest, signal: AbortLike): Promise<ChatCompletionRequest>;
  /** The web_search_call item, once the search has run (none for a native answer). */
  hostedCalls(): readonly ResponseWebSearchCall[];
}

/**
 * OpenAI's hosted `web_search` tool on a channel without it (SPEC §7a): the relay searches once,
 * through the search pipeline (see runHostedSearch), before the model is asked, and gives the
 * model the results (see withWebSearchSources); the Response shows it as a `web_search_call`
 * item before the model's output. A search that cannot run — no search channel, no quota left
 * for it, the engine failing, no text to search for — does not fail the request: the model
 * answers without results, told the search failed, the item says `failed`, and the log says why.
 */
export function bridgedWebSearch(deps: HostedSearchDeps, plan: WebSearchPlan, context: BridgedWebSearchContext): BridgedWebSearch {
  let outcome: Promise<WebSearchOutcome> | undefined;
  let item: ResponseWebSearchCall | undefined;
  const id = context.newId('ws');

  const run = async (signal: AbortLike): Promise<WebSearchOutcome> => {
    const { query } = plan.request;
    if (query === undefined) return failed(undefined, 'the latest user message has no text to search for');
    const searched = await runHostedSearch(deps, { ...context, signal, search: { ...plan.request, query } });
    if (searched.ok) return { status: 'completed', query, results: searched.results };
    return failed(query, `${searched.error.status} ${searched.error.code ?? searched.error.type}: ${searched.error.message}`);
  };
  const failed = (query: string | undefined, reason: string): WebSearchOutcome => {
    deps.logger.warn({ requestId: context.requestId, reason }, 'web search for a bridged Response failed; the model answers without results');
    return { status: 'failed', query, reason };
  };

  return {
    beforeBridged: async (request, signal) => {
      outcome ??= run(signal);
      const settled = await outcome;
      item ??= webSearchCallItem(id, settled);
      return withWebSearchSources(request, settled);
    },
    hostedCalls: () => (item ? [item] : []),
  };
}
