import { accountsContract, type LogExportQuery } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import type { Logger } from '../logger';
import type { UsageLogFilter, UsageLogStore } from '../storage/types';
import { assertMayNameAccount, managedAccountId } from './caller-scope';
import { logCsvDownload } from './log-csv-stream';
import { logView } from './log-view';
import { assertPageInRange } from './paging';
import { optionalTimeRange } from './time-range';

export interface LogRouteDeps {
  usageLog: UsageLogStore;
  /** For an export that fails after its first bytes, when no error status can be sent. */
  logger: Logger;
}

/**
 * The rows a listing or export selects: an account's access key only its own account's,
 * whatever it filters on (naming another account is 403); the admin every row.
 */
function logFilter(query: LogExportQuery, scope: number | undefined): UsageLogFilter {
  assertMayNameAccount(scope, query.account_id);
  return {
    tokenId: query.token_id,
    accountId: query.account_id ?? scope,
    model: query.model,
    status: query.status,
    endpoint: query.endpoint,
    ...optionalTimeRange(query.from, query.to),
  };
}

/**
 * `GET /api/logs` (SPEC §8), newest first, and `GET /api/logs/export`, the same rows as CSV
 * streamed page by page (no paging for the caller).
 */
export function logHandlers(deps: LogRouteDeps) {
  const s = initServer();
  return {
    listLogs: s.route(accountsContract.listLogs, async ({ query, res }) => {
      const filter = logFilter(query, managedAccountId(res.locals.caller));
      const { rows, total } = await deps.usageLog.query({ ...filter, page: query.page, perPage: query.per_page });
      assertPageInRange(query.page, query.per_page, total);
      return { status: 200, body: { data: rows.map(logView), total, page: query.page, per_page: query.per_page } };
    }),
    exportLogs: s.route(accountsContract.exportLogs, async ({ query, res }) => {
      const filter = logFilter(query, managedAccountId(res.locals.caller));
      const body = await logCsvDownload(res, (after, limit) => deps.usageLog.keysetPage(filter, after, limit), deps.logger);
      // ts-rest pipes a stream body into the response as it is; the contract types the text it carries.
      return { status: 200, body: body as unknown as string };
    }),
  };
}
