import type pg from 'pg';
import { chat, countBy, openReservations, pollUntil, quotaOf, sleep, usageRowsOf, usageRowsOfToken, type ChatOptions, type ChatOutcome, type UsageRow } from './relay-calls';
import type { InstanceName, TwoInstances } from './two-instances';

export interface SteadyLoad {
  /** Every outcome so far, in the order the answers came. */
  outcomes: ChatOutcome[];
  /** Stops sending; resolves once every loop's last request has been answered. */
  stop(): Promise<ChatOutcome[]>;
}

/**
 * `loops` callers, each sending one request after another until `stop()`, alternating A and B
 * (the relay under that name at the time of sending: a restarted A gets its share once up).
 */
export function steadyLoad(cluster: Pick<TwoInstances, 'relay'>, key: string, loops: number, options: ChatOptions = { latencyMsPerToken: 20 }): SteadyLoad {
  const outcomes: ChatOutcome[] = [];
  let stopped = false;
  const runs = Array.from({ length: loops }, async (_, loop) => {
    for (let i = 0; !stopped; i += 1) {
      const name: InstanceName = (loop + i) % 2 === 0 ? 'a' : 'b';
      const outcome = await chat(cluster.relay(name), key, { ...options, requestId: `load-${loop}-${i}-${Date.now()}` });
      outcomes.push(outcome);
      // An instance that is down or refusing answers at once: do not spin on it.
      if (outcome.status !== 200) await sleep(20);
    }
  });
  return {
    outcomes,
    stop: async () => {
      stopped = true;
      await Promise.all(runs);
      return outcomes;
    },
  };
}

/** What the database holds for a token after a load, against what its callers were answered. */
export interface Ledger {
  /** Requests answered 200 without exactly one usage row (lost or doubled). */
  okWithoutOneRow: string[];
  /** Request ids with more than one row, each with its rows (id, status, cost, time). */
  duplicated: string[];
  rows: number;
  quotaUsed: number;
  sumOfCosts: number;
  /** Reservations of any token still open once the relays had time to settle. */
  openReservations: number;
  /** How long the reservations took to drain after the load stopped, or undefined. */
  drainedMs: number | undefined;
  /** "200: n, 503: m, …" */
  statuses: string;
}

/** Each request id with more than one row, with those rows: what a failure shows to tell a batch written twice from two records of one request. */
function duplicatedRows(rows: readonly UsageRow[]): string[] {
  const counts = countBy(rows.map((row) => row.request_id));
  return [...counts]
    .filter(([, count]) => count > 1)
    .map(([requestId]) => {
      const its = rows.filter((row) => row.request_id === requestId);
      return `${requestId}: ${its.map((row) => `#${row.id} ${row.status}${row.error_code ? ` ${row.error_code}` : ''} cost ${row.cost} at ${row.created_at}`).join('; ')}`;
    });
}

/**
 * Waits (up to `settleMs`) for every 200's row and for the reservations to drain, then reads the
 * token's rows and quota: a fault must leave every answered request with exactly one row, no
 * reservation open, and `quota_used` equal to the sum of the rows' costs.
 */
export async function readLedger(db: pg.Pool, tokenId: number, outcomes: readonly ChatOutcome[], settleMs = 10_000): Promise<Ledger> {
  const ok = outcomes.filter((outcome) => outcome.status === 200);
  const started = performance.now();
  const drainedMs = await pollUntil(async () => (await openReservations(db)).length === 0, { withinMs: settleMs, everyMs: 100 });
  const rows = await usageRowsOf(
    db,
    ok.map((outcome) => outcome.requestId),
    Math.max(1_000, settleMs - (performance.now() - started)),
  );
  const perRequest = countBy(rows.map((row) => row.request_id));
  const allRows = await usageRowsOfToken(db, tokenId);
  const { quotaUsed } = await quotaOf(db, tokenId);
  return {
    okWithoutOneRow: ok.filter((outcome) => perRequest.get(outcome.requestId) !== 1).map((outcome) => outcome.requestId),
    duplicated: duplicatedRows(allRows),
    rows: allRows.length,
    quotaUsed,
    sumOfCosts: allRows.reduce((sum, row) => sum + row.cost, 0),
    openReservations: (await openReservations(db)).length,
    drainedMs,
    statuses: [...countBy(outcomes.map((outcome) => outcome.status))].map(([status, count]) => `${status || 'no answer'}: ${count}`).join(', '),
  };
}
