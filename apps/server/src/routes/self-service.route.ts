import { accountsContract, parseGizmoModel, type Model } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { invalidRequest } from '@chat-relay/wire';
import type { ChannelRegistry, LiveChannel } from '../channels/channel-registry';
import { listModels, servedEndpoints } from '../channels/list-models';
import type { PriceBook } from '../billing/price-book';
import { withCatalogueFacts } from '../catalogue/describe-models';
import type { ModelCatalogueService } from '../catalogue/model-catalogue-service';
import { isGlob, matchesModelPattern } from '../core/model-pattern';
import type { Caller } from '../auth/caller';
import type { AccountRecord, AccountStore, AssistantStore, TokenRecord, TokenStore, UsageLogStore } from '../storage/types';
import { storedResponsesOf, type StoredResponsesSource } from './stored-responses-view';
import { accountView, tokenView } from './views';
import { readWindows, type LimitReadbackDeps } from '../policy/limit-readback';

export interface SelfServiceDeps extends LimitReadbackDeps {
  accounts: AccountStore;
  tokens: TokenStore;
  assistants: AssistantStore;
  registry: ChannelRegistry;
  usageLog: UsageLogStore;
  /** What each account keeps of the Responses API, shown on the account. */
  storedResponses: StoredResponsesSource;
  /** The model list's limits and prices, as on `GET /v1/models`. */
  catalogue: ModelCatalogueService;
  priceBook: PriceBook;
}

/** What chat UIs are shown as the limit when neither the token nor its account has one. */
export const UNLIMITED_USD = 100_000_000;
const MICRO_USD_PER_CENT = 10_000;

/** What is left of a limit (micro-USD); null = unlimited. */
const left = (limit: number | null, used: number): number | null => (limit === null ? null : Math.max(0, limit - used));

const smallest = (amounts: ReadonlyArray<number | null>): number | null =>
  amounts.reduce<number | null>((min, amount) => (amount === null ? min : min === null ? amount : Math.min(min, amount)), null);

/**
 * The caller's account and, for an API token, the token itself — both read afresh, since the
 * token authentication found may be a cached copy whose `quotaUsed` has moved on since.
 */
async function whoIsCalling(
  deps: Pick<SelfServiceDeps, 'accounts' | 'tokens'>,
  caller: Caller | undefined,
): Promise<{ account: AccountRecord; token: TokenRecord | null }> {
  if (!caller) throw new Error('self-service route reached without a caller');
  if (caller.kind !== 'token') return { account: caller.account, token: null };
  const [account, token] = await Promise.all([deps.accounts.get(caller.token.accountId), deps.tokens.get(caller.token.id)]);
  // Deleting an account deletes its tokens, so a live token always has one.
  if (!account) throw new Error(`token ${caller.token.id} has no account ${caller.token.accountId}`);
  return { account, token: token ?? caller.token };
}

/** `YYYY-MM-DD` → midnight UTC, refusing days that do not exist (`2025-02-30`). */
function parseDay(day: string, param: string): Date {
  const date = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) {
    throw invalidRequest(`'${day}' is not a calendar date.`, param, 'invalid_value');
  }
  return date;
}

/**
 * Plain names of an allow-list that channels serve only through a glob (`claude-sonnet-4*`) and
 * their upstream's list does not name (or was never synced), so that `listModels` could not
 * enumerate them.
 */
function namedAndServed(allowList: readonly string[], listed: readonly Model[], channels: readonly LiveChannel[]): Model[] {
  const known = new Set(listed.map((model) => model.id));
  const extra: Model[] = [];
  for (const name of new Set(allowList)) {
    if (known.has(name) || isGlob(name) || parseGizmoModel(name)) continue;
    const channel = channels.find((candidate) => candidate.record.enabled && candidate.serves(name));
    if (!channel) continue;
    const endpoints = servedEndpoints(
      channels.filter((candidate) => candidate.record.enabled),
      name,
    );
    extra.push({ id: name, object: 'model', created: Math.floor(Date.parse(channel.record.createdAt) / 1000), owned_by: channel.record.type, endpoints });
  }
  return extra;
}

/**
 * What a caller may ask about itself (SPEC §4): an API token or a management key. A token sees
 * its account, itself, and the models its allow-list admits; a management key its account.
 */
export function selfServiceHandlers(deps: SelfServiceDeps) {
  const s = initServer();
  return {
    getAccountInfo: s.route(accountsContract.getAccountInfo, async ({ res }) => {
      const { account, token } = await whoIsCalling(deps, res.locals.caller);
      const accountLeft = left(account.quotaLimit, account.quotaUsed);
      const quotaRemaining = token ? smallest([left(token.quotaLimit, token.quotaUsed), accountLeft]) : accountLeft;
      // The token's windows and its account's, in one store call: a token caller sees both.
      const [stored, windowsOf] = await Promise.all([
        storedResponsesOf(deps.storedResponses, [account.id]),
        readWindows(deps, [{ owner: 'account', record: account }, ...(token ? [{ owner: 'token' as const, record: token }] : [])]),
      ]);
      return {
        status: 200,
        body: {
          account: accountView(account, stored(account.id), windowsOf('account', account.id)),
          token: token ? tokenView(token, new Date().toISOString(), windowsOf('token', token.id)) : null,
          quota_remaining: quotaRemaining,
        },
      };
    }),

    listCallerModels: s.route(accountsContract.listCallerModels, async ({ res }) => {
      const { account, token } = await whoIsCalling(deps, res.locals.caller);
      const channels = await deps.registry.all();
      const served = listModels(channels, await deps.assistants.listUsableBy(account.id));
      const allowList = token?.models ?? null;
      const described = (models: Model[]) => withCatalogueFacts(models, channels, { priceBook: deps.priceBook, catalogue: deps.catalogue });
      if (allowList === null) return { status: 200, body: { object: 'list' as const, data: await described(served) } };
      const data = served.filter((model) => allowList.some((pattern) => matchesModelPattern(pattern, model.id)));
      return { status: 200, body: { object: 'list' as const, data: await described([...data, ...namedAndServed(allowList, data, channels)]) } };
    }),

    // The lifetime quota only: chat UIs show `hard_limit_usd` minus this month's `total_usage`,
    // which a daily or weekly window would turn into nonsense; a key's windows are on `GET /api/account`.
    getBillingSubscription: s.route(accountsContract.getBillingSubscription, async ({ res }) => {
      const { account, token } = await whoIsCalling(deps, res.locals.caller);
      const limit = token?.quotaLimit ?? account.quotaLimit;
      const limitUsd = limit === null ? UNLIMITED_USD : limit / 1_000_000;
      const expiresAt = token?.expiresAt ?? null;
      return {
        status: 200,
        body: {
          object: 'billing_subscription' as const,
          has_payment_method: true,
          soft_limit_usd: limitUsd,
          hard_limit_usd: limitUsd,
          system_hard_limit_usd: limitUsd,
          access_until: expiresAt === null ? 0 : Math.floor(Date.parse(expiresAt) / 1000),
        },
      };
    }),

    getBillingUsage: s.route(accountsContract.getBillingUsage, async ({ query, res }) => {
      const { account, token } = await whoIsCalling(deps, res.locals.caller);
      const now = new Date();
      const start = query.start_date ? parseDay(query.start_date, 'start_date') : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const end = query.end_date ? parseDay(query.end_date, 'end_date') : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      if (start >= end) throw invalidRequest("'start_date' must be before 'end_date' (which is exclusive).", 'start_date', 'invalid_value');
      const scope = token ? { tokenId: token.id } : { accountId: account.id };
      const days = await deps.usageLog.aggregate(scope, start.toISOString(), end.toISOString(), 'day');
      const cost = days.reduce((sum, day) => sum + day.cost, 0);
      return { status: 200, body: { object: 'list' as const, total_usage: cost / MICRO_USD_PER_CENT } };
    }),
  };
}
