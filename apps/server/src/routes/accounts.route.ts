import { accountsContract, type AccountUpdate, type Price } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { invalidRequest, notFound } from '@chat-relay/wire';
import type { PriceBook } from '../billing/price-book';
import { digestKey, keyHint, randomBase62 } from '../security/keys';
import type { AccountPatch, AccountRecord, AccountStore, PriceRecord, PriceStore } from '../storage/types';
import { callerAccountId } from './caller-scope';
import { logHandlers, type LogRouteDeps } from './logs.route';
import { assertPageInRange } from './paging';
import { selfServiceHandlers, type SelfServiceDeps } from './self-service.route';
import { usageSeriesHandlers, type UsageSeriesDeps } from './usage-series.route';
import { storedResponsesOf } from './stored-responses-view';
import { accountView } from './views';
import { readWindows, type LimitReadbackDeps } from '../policy/limit-readback';

export interface AccountsRouteDeps extends LogRouteDeps, UsageSeriesDeps, SelfServiceDeps, LimitReadbackDeps {
  accounts: AccountStore;
  prices: PriceStore;
  /** The in-memory price table of the hot path, reloaded after a PUT. */
  priceBook: PriceBook;
}

/** An account's access key for `/api/*`: shown once on create, stored as a digest. */
export const generateAccountKey = (): string => `sk-acct-${randomBase62(40)}`;

const accountNotFound = (id: number) => notFound('account_not_found', `No account with id ${id}.`, 'id');

function patchFrom(update: AccountUpdate): AccountPatch {
  const patch: AccountPatch = {};
  if (update.name !== undefined) patch.name = update.name;
  if (update.role !== undefined) patch.role = update.role;
  if (update.status !== undefined) patch.status = update.status;
  if (update.quota_limit !== undefined) patch.quotaLimit = update.quota_limit;
  if (update.quota_used !== undefined) patch.quotaUsed = update.quota_used;
  if (update.periodic_limits !== undefined) patch.periodicLimits = update.periodic_limits;
  if (update.time_zone !== undefined) patch.timeZone = update.time_zone;
  if (update.alert_thresholds !== undefined) patch.alertThresholds = update.alert_thresholds;
  return patch;
}

/** A cache price left out or `null` follows `input`; both shown, `null` when they do. */
const priceRecordFrom = (price: Price): PriceRecord => ({
  model: price.model,
  input: price.input ?? null,
  output: price.output ?? null,
  cacheRead: price.cache_read ?? null,
  cacheWrite: price.cache_write ?? null,
  ...(price.image != null ? { image: price.image } : {}),
  ...(price.image_variants != null ? { imageVariants: price.image_variants } : {}),
  ...(price.search_unit != null ? { searchUnit: price.search_unit } : {}),
  ...(price.characters != null ? { characters: price.characters } : {}),
  ...(price.audio_minute != null ? { audioMinute: price.audio_minute } : {}),
  ...(price.video_second != null ? { videoSecond: price.video_second } : {}),
  ...(price.video_second_variants != null ? { videoSecondVariants: price.video_second_variants } : {}),
  ...(price.song != null ? { song: price.song } : {}),
  ...(price.search_query != null ? { searchQuery: price.search_query } : {}),
  ...(price.tool_calls != null ? { toolCalls: price.tool_calls } : {}),
  ...(price.service_tiers != null ? { serviceTiers: price.service_tiers } : {}),
  ...(price.audio_output != null ? { audioOutput: price.audio_output } : {}),
  ...(price.free ? { free: true } : {}),
});
const priceView = (price: PriceRecord): Price => ({
  model: price.model,
  // An entry priced only by its units shows no token prices.
  ...(price.input !== null ? { input: price.input } : {}),
  ...(price.output !== null ? { output: price.output } : {}),
  cache_read: price.cacheRead,
  cache_write: price.cacheWrite,
  // The units of other endpoints are shown only where a price sets them: a token-priced model's entry stays as it was.
  ...(price.image != null ? { image: price.image } : {}),
  ...(price.imageVariants != null ? { image_variants: price.imageVariants } : {}),
  ...(price.searchUnit != null ? { search_unit: price.searchUnit } : {}),
  ...(price.characters != null ? { characters: price.characters } : {}),
  ...(price.audioMinute != null ? { audio_minute: price.audioMinute } : {}),
  ...(price.videoSecond != null ? { video_second: price.videoSecond } : {}),
  ...(price.videoSecondVariants != null ? { video_second_variants: price.videoSecondVariants } : {}),
  ...(price.song != null ? { song: price.song } : {}),
  ...(price.searchQuery != null ? { search_query: price.searchQuery } : {}),
  ...(price.toolCalls != null ? { tool_calls: price.toolCalls } : {}),
  ...(price.serviceTiers != null ? { service_tiers: price.serviceTiers } : {}),
  ...(price.audioOutput != null ? { audio_output: price.audioOutput } : {}),
  ...(price.free ? { free: true } : {}),
});

/**
 * `accountsContract` (SPEC §4, §8): account CRUD and the price table here (admin key only),
 * the request log, its CSV export and the usage series (scoped to the caller's account) and the
 * caller's own view beside it.
 */
export function accountsRouter(deps: AccountsRouteDeps) {
  const s = initServer();
  /** The views of a page of accounts: what each keeps of the Responses API and its windows, each read once for the page. */
  const viewsOf = async (accounts: readonly AccountRecord[]) => {
    const ids = accounts.map((account) => account.id);
    const [stored, windowsOf] = await Promise.all([
      storedResponsesOf(deps.storedResponses, ids),
      readWindows(
        deps,
        accounts.map((record) => ({ owner: 'account' as const, record })),
      ),
    ]);
    return accounts.map((account) => accountView(account, stored(account.id), windowsOf('account', account.id)));
  };
  const viewOf = async (account: AccountRecord) => {
    const [view] = await viewsOf([account]);
    if (!view) throw new Error(`account ${account.id} has no view`);
    return view;
  };
  return s.router(accountsContract, {
    listAccounts: async ({ query }) => {
      const { rows, total } = await deps.accounts.list({ page: query.page, perPage: query.per_page });
      assertPageInRange(query.page, query.per_page, total);
      const data = await viewsOf(rows);
      return { status: 200, body: { data, total, page: query.page, per_page: query.per_page } };
    },

    createAccount: async ({ body }) => {
      const accessKey = generateAccountKey();
      const account = await deps.accounts.create({
        name: body.name,
        role: body.role ?? 'user',
        status: body.status ?? 'active',
        quotaLimit: body.quota_limit ?? null,
        keyDigest: digestKey(accessKey),
        keyHint: keyHint(accessKey),
        limits: { periodicLimits: body.periodic_limits, timeZone: body.time_zone, alertThresholds: body.alert_thresholds },
      });
      return { status: 201, body: { ...(await viewOf(account)), access_key: accessKey } };
    },

    getAccount: async ({ params }) => {
      const account = await deps.accounts.get(params.id);
      if (!account) throw accountNotFound(params.id);
      return { status: 200, body: await viewOf(account) };
    },

    updateAccount: async ({ params, body, res }) => {
      // The admin cannot lock itself out: no demoting or disabling its own account.
      if (params.id === callerAccountId(res.locals.caller)) {
        if (body.role === 'user') throw invalidRequest('You cannot demote your own account.', 'role', 'cannot_modify_self');
        if (body.status === 'disabled') throw invalidRequest('You cannot disable your own account.', 'status', 'cannot_modify_self');
      }
      const account = await deps.accounts.update(params.id, patchFrom(body));
      if (!account) throw accountNotFound(params.id);
      return { status: 200, body: await viewOf(account) };
    },

    deleteAccount: async ({ params, res }) => {
      if (params.id === callerAccountId(res.locals.caller)) {
        throw invalidRequest('You cannot delete your own account.', 'id', 'cannot_delete_self');
      }
      if (!(await deps.accounts.delete(params.id))) throw accountNotFound(params.id);
      return { status: 204, body: undefined };
    },

    getPrices: async () => ({ status: 200, body: { data: (await deps.prices.list()).map(priceView) } }),

    putPrices: async ({ body }) => {
      await deps.prices.replace(body.data.map(priceRecordFrom));
      deps.priceBook.invalidate();
      return { status: 200, body: { data: (await deps.prices.list()).map(priceView) } };
    },

    ...logHandlers(deps),
    ...usageSeriesHandlers(deps),
    ...selfServiceHandlers(deps),
  });
}
