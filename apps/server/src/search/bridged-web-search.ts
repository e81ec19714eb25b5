import type { ChatCompletion, ResponseOutputItem, ResponsesRequest, ResponseWebSearchCall } from '@chat-relay/contract';
import {
  convertChatToResponse,
  webSearchCallItem,
  webSearchQueryOf,
  webSearchRequestOf,
  webSearchResultText,
  WEB_SEARCH_LIMIT_TEXT,
  type NewItemId,
  type WebSearchOutcome,
  type WebSearchPlan,
} from '@chat-relay/wire';
import type { AbortLike } from '../core/caller-gone';
import type { Caller } from '../auth/caller';
import type { RelayFunction } from '../pipeline/relay-function-loop';
import { runHostedSearch, type HostedSearchDeps } from './run-hosted-search';

/** What a Response's searches may do, by default: RELAY_WEB_SEARCH_MAX_CALLS. */
export const DEFAULT_WEB_SEARCH_MAX_CALLS = 5;

export interface BridgedWebSearchContext {
  caller: Caller | undefined;
  requestId: string;
  clientIp: string | null;
  newId: NewItemId;
  /** The caller's request: what a whole answer's earlier model calls are turned into items by. */
  request: ResponsesRequest;
  /** The most searches one response runs (RELAY_WEB_SEARCH_MAX_CALLS). */
  maxCalls: number;
}

/** The hosted web search of one bridged Response, as the relay's function (see relay-function-loop.ts). */
export interface BridgedWebSearch extends RelayFunction {
  /** A whole answer's output before its last model call: what earlier model calls said and the web_search_call items, in order. */
  leadingItems(): readonly ResponseOutputItem[];
}

/**
 * OpenAI's hosted `web_search` tool on a channel without it (SPEC §7a): offered to the model as a
 * function; each call of it is one search through the search pipeline (see runHostedSearch: its
 * own usage row), its results the function's result, shown to the caller as a `web_search_call`
 * item — at most `maxCalls` a response (past it the model is told, and asked to answer). A search
 * that cannot run — no quota left for it, the engine failing, no query — does not fail the
 * request: the model is told it failed, the item says `failed`, and the log says why.
 */
export function bridgedWebSearch(deps: HostedSearchDeps, plan: WebSearchPlan, context: BridgedWebSearchContext): BridgedWebSearch {
  let searches = 0;
  const leading: ResponseOutputItem[] = [];

  const failed = (query: string | undefined, reason: string): WebSearchOutcome => {
    deps.logger.warn({ requestId: context.requestId, reason }, 'web search for a bridged Response failed; the model is told so');
    return { status: 'failed', query, reason };
  };
  const search = async (query: string | undefined, signal: AbortLike, ordinal: number): Promise<WebSearchOutcome> => {
    if (query === undefined) return failed(undefined, 'the model called the search without a query');
    const { caller, requestId, clientIp } = context;
    const searched = await runHostedSearch(deps, { caller, requestId, clientIp, signal, ordinal, search: webSearchRequestOf(plan, query) });
    if (searched.ok) return { status: 'completed', query, results: searched.results };
    return failed(query, `${searched.error.status} ${searched.error.code ?? searched.error.type}: ${searched.error.message}`);
  };

  return {
    name: plan.functionName,
    get exhausted() {
      return searches >= context.maxCalls;
    },
    run: async (calls, signal, show) => {
      const results: string[] = [];
      for (const call of calls) {
        if (searches >= context.maxCalls) {
          results.push(WEB_SEARCH_LIMIT_TEXT);
          continue;
        }
        searches += 1;
        const id = context.newId('ws');
        const query = webSearchQueryOf(call.arguments);
        show?.(webSearchCallItem(id, { status: 'in_progress', query }));
        const outcome = await search(query, signal, searches);
        const item: ResponseWebSearchCall = webSearchCallItem(id, outcome);
        leading.push(item);
        show?.(item);
        results.push(webSearchResultText(outcome));
      }
      return results;
    },
    modelCall: (completion: ChatCompletion) => {
      // What the model said beside its calls (its search calls are the relay's: not shown as function calls).
      const { request, newId } = context;
      const said = { ...completion, choices: completion.choices.map((choice) => ({ ...choice, message: { ...choice.message, tool_calls: undefined } })), usage: undefined };
      leading.push(...convertChatToResponse({ completion: said, request, responseId: '', createdAt: 0, publicModel: '', newId }).output);
    },
    // The searches an earlier try ran keep their rows (they ran), and count towards the bound; its items are not this answer's.
    startAnswer: () => void leading.splice(0),
    leadingItems: () => leading,
  };
}
