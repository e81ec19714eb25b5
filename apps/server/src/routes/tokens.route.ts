import { microUsdToUsd, tokensContract, type Token, type TokenUpdate, type UsageBucket } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { invalidRequest, notFound } from '@chat-relay/wire';
import { digestKey, generateTokenKey, keyHint } from '../security/keys';
import type { AccountStore, TokenPatch, TokenRecord, TokenStore, UsageLogStore, UsageTotals } from '../storage/types';
import { readWindows, type LimitReadbackDeps } from '../policy/limit-readback';
import { assertMayNameAccount, callerAccountId, managedAccountId, reachableToken } from './caller-scope';
import { assertPageInRange } from './paging';
import { timeRange } from './time-range';
import { tokenView } from './views';
import { sumFields } from '../storage/sum-fields';
import { USAGE_TOTAL_FIELDS } from '../storage/usage-aggregate';

export interface TokenRouteDeps extends LimitReadbackDeps {
  tokens: TokenStore;
  accounts: AccountStore;
  usageLog: UsageLogStore;
}

const USAGE_DEFAULT_DAYS = 30;

const tokenNotFound = (id: number) => notFound('token_not_found', `No token with id ${id}.`, 'id');

/** Stored as `toISOString()` so that expiry compares as a string with "now" everywhere. */
const normaliseTime = (iso: string | null): string | null => (iso === null ? null : new Date(iso).toISOString());

/** A PATCH body (or a batch's `update`) → the store's patch; absent fields stay as they are. */
export function tokenPatchFrom(update: TokenUpdate): TokenPatch {
  const patch: TokenPatch = {};
  if (update.name !== undefined) patch.name = update.name;
  if (update.status !== undefined) patch.status = update.status;
  if (update.expires_at !== undefined) patch.expiresAt = normaliseTime(update.expires_at);
  if (update.quota_limit !== undefined) patch.quotaLimit = update.quota_limit;
  if (update.quota_used !== undefined) patch.quotaUsed = update.quota_used;
  if (update.models !== undefined) patch.models = update.models;
  if (update.allowed_ips !== undefined) patch.allowedIps = update.allowed_ips;
  if (update.rate_limit !== undefined) patch.rateLimit = update.rate_limit;
  if (update.periodic_limits !== undefined) patch.periodicLimits = update.periodic_limits;
  if (update.time_zone !== undefined) patch.timeZone = update.time_zone;
  if (update.alert_thresholds !== undefined) patch.alertThresholds = update.alert_thresholds;
  return patch;
}

const totalsView = (totals: UsageTotals): Omit<UsageBucket, 'key'> => ({
  requests: totals.requests,
  prompt_tokens: totals.promptTokens,
  completion_tokens: totals.completionTokens,
  cache_read_tokens: totals.cacheReadTokens,
  cache_write_tokens: totals.cacheWriteTokens,
  cost: totals.cost,
  cost_usd: microUsdToUsd(totals.cost),
});

/**
 * Token administration (SPEC §4). The admin key reaches every token; an account's access key
 * only its own — another account's token answers 404, as if it did not exist. The key is
 * generated here, shown once, and stored as a digest.
 */
export function tokensRouter(deps: TokenRouteDeps) {
  const s = initServer();
  /** The views of a page of tokens, their windows read in one store call. */
  const viewsOf = async (tokens: readonly TokenRecord[]): Promise<Token[]> => {
    const now = new Date().toISOString();
    const windowsOf = await readWindows(
      deps,
      tokens.map((record) => ({ owner: 'token' as const, record })),
    );
    return tokens.map((token) => tokenView(token, now, windowsOf('token', token.id)));
  };
  const viewOf = async (token: TokenRecord): Promise<Token> => {
    const now = new Date().toISOString();
    const windowsOf = await readWindows(deps, [{ owner: 'token', record: token }]);
    return tokenView(token, now, windowsOf('token', token.id));
  };

  return s.router(tokensContract, {
    listTokens: async ({ query, res }) => {
      const scope = managedAccountId(res.locals.caller);
      assertMayNameAccount(scope, query.account_id);
      const now = new Date().toISOString();
      const { rows, total } = await deps.tokens.list({
        page: query.page,
        perPage: query.per_page,
        status: query.status,
        accountId: query.account_id ?? scope,
        now,
      });
      assertPageInRange(query.page, query.per_page, total);
      return {
        status: 200,
        body: { data: await viewsOf(rows), total, page: query.page, per_page: query.per_page },
      };
    },

    createToken: async ({ body, res }) => {
      const scope = managedAccountId(res.locals.caller);
      assertMayNameAccount(scope, body.account_id);
      const accountId = body.account_id ?? callerAccountId(res.locals.caller);
      if (body.account_id !== undefined && !(await deps.accounts.get(body.account_id))) {
        throw invalidRequest(`No account with id ${body.account_id}.`, 'account_id', 'account_not_found');
      }
      const key = generateTokenKey();
      const token = await deps.tokens.create({
        accountId,
        name: body.name,
        keyDigest: digestKey(key),
        keyHint: keyHint(key),
        status: body.status,
        expiresAt: body.expires_at === undefined ? undefined : normaliseTime(body.expires_at),
        quotaLimit: body.quota_limit,
        models: body.models,
        allowedIps: body.allowed_ips,
        rateLimit: body.rate_limit,
        periodicLimits: body.periodic_limits,
        timeZone: body.time_zone,
        alertThresholds: body.alert_thresholds,
      });
      return { status: 201, body: { ...(await viewOf(token)), key } };
    },

    searchTokens: async ({ query, res }) => {
      const scope = managedAccountId(res.locals.caller);
      const { rows, total } = await deps.tokens.search({ page: query.page, perPage: query.per_page, q: query.q, accountId: scope });
      assertPageInRange(query.page, query.per_page, total);
      return {
        status: 200,
        body: { data: await viewsOf(rows), total, page: query.page, per_page: query.per_page },
      };
    },

    batchTokens: async ({ body, res }) => {
      const scope = managedAccountId(res.locals.caller);
      const patch = body.update === undefined ? undefined : tokenPatchFrom(body.update);
      const outcomes = await deps.tokens.batch(body.ids, body.action, patch, scope);
      const updated = outcomes.flatMap((outcome) => (outcome.token ? [outcome.token] : []));
      const views = new Map((await viewsOf(updated)).map((view) => [view.id, view]));
      const results = outcomes.map((outcome) => {
        const view = outcome.token && views.get(outcome.token.id);
        return { id: outcome.id, status: outcome.status, ...(view ? { token: view } : {}) };
      });
      return { status: 200, body: { action: body.action, results } };
    },

    getTokenUsage: async ({ params, query, res }) => {
      const token = await reachableToken(deps.tokens, managedAccountId(res.locals.caller), params.id);
      const range = timeRange(query.from, query.to, USAGE_DEFAULT_DAYS);
      const rows = await deps.usageLog.aggregate({ tokenId: token.id }, range.from, range.to, query.group_by);
      const total: UsageTotals = sumFields(rows, USAGE_TOTAL_FIELDS);
      return {
        status: 200,
        body: {
          token_id: token.id,
          from: range.from,
          to: range.to,
          group_by: query.group_by,
          data: rows.map((row) => ({ key: row.key, ...totalsView(row) })),
          total: totalsView(total),
        },
      };
    },

    updateToken: async ({ params, body, res }) => {
      await reachableToken(deps.tokens, managedAccountId(res.locals.caller), params.id);
      const token = await deps.tokens.update(params.id, tokenPatchFrom(body));
      if (!token) throw tokenNotFound(params.id);
      return { status: 200, body: await viewOf(token) };
    },

    getToken: async ({ params, res }) => {
      const token = await reachableToken(deps.tokens, managedAccountId(res.locals.caller), params.id);
      return { status: 200, body: await viewOf(token) };
    },

    deleteToken: async ({ params, res }) => {
      await reachableToken(deps.tokens, managedAccountId(res.locals.caller), params.id);
      if (!(await deps.tokens.delete(params.id))) throw tokenNotFound(params.id);
      return { status: 204, body: undefined };
    },
  });
}
