import type pg from 'pg';
import { isDatabaseError } from './pg-database-error';

/**
 * A write whose outcome the relay could not see: its connection dropped (or went silent) after
 * the statement was sent, so the server may have run it, may run it yet (bytes held up by the
 * network), or never will. `backendPid` names the server session it was sent on.
 */
export interface SessionDoubt {
  backendPid: number;
}

/** A transaction whose COMMIT went unanswered: `xid` is its id (txid_current). */
export interface TransactionDoubt extends SessionDoubt {
  xid: string;
}

/** The COMMIT of `doubt` went unanswered and the server could not be asked yet; ask again later (`commitOutcome`). */
export class CommitInDoubt extends Error {
  constructor(
    readonly doubt: TransactionDoubt,
    cause: unknown,
  ) {
    super(`the outcome of a COMMIT is not known yet (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    this.name = 'CommitInDoubt';
  }
}

/** SQLSTATEs of a session ended under the statement (admin_shutdown, crash_shutdown, cannot_connect_now). */
const SESSION_ENDED = new Set(['57P01', '57P02', '57P03']);

/**
 * True when `error` leaves it unknown whether the statement ran: the connection failed or timed
 * out around it. An error the server answered for the statement itself (a constraint, a
 * statement timeout) means it did not run, and is false here.
 */
export function outcomeUnknown(error: unknown): boolean {
  if (error instanceof CommitInDoubt) return true;
  if (isDatabaseError(error)) return error.code !== undefined && (error.code.startsWith('08') || SESSION_ENDED.has(error.code));
  return connectionFailed(error);
}

/** pg's own words for a connection that broke, closed, or did not answer in time. */
const CONNECTION_FAILED = /^(Connection terminated|Query read timeout|Client has encountered a connection error|Client was closed)/;

/** True when `error` is the connection failing (a socket error, a drop, the query timeout), not a statement's. */
export function connectionFailed(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || isDatabaseError(error)) return false;
  // Read by shape: a socket's error is made by Node itself, of another realm than ours under a test runner.
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && /^E[A-Z]+$/.test(code)) || (typeof message === 'string' && CONNECTION_FAILED.test(message));
}

/** The server process of a client's session (from the connection's BackendKeyData). */
export function backendPidOf(client: pg.ClientBase): number | undefined {
  const pid = (client as unknown as { processID?: unknown }).processID;
  return typeof pid === 'number' ? pid : undefined;
}

const FENCE_POLL_MS = 50;
const INSUFFICIENT_PRIVILEGE = '42501';
const FENCE_WITHIN_MS = 5_000;

/**
 * Makes sure the relay's old session `backendPid` can run nothing more: terminated if it is still
 * there — only a session of this role named as the relay's, so never anyone else's — and waited
 * for until it is gone. After this, what that session ran is all it will ever run. Throws when
 * the server cannot be asked, or the session outlives the wait.
 */
export async function fenceSession(pool: pg.Pool, backendPid: number): Promise<void> {
  try {
    await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE pid = $1 AND pid <> pg_backend_pid() AND usename = current_user AND application_name = $2`,
      [backendPid, (pool.options as { application_name?: string }).application_name ?? ''],
    );
  } catch (error) {
    // A role not allowed to end its own sessions: the session ends by itself once its closed connection is noticed.
    if (!(isDatabaseError(error) && error.code === INSUFFICIENT_PRIVILEGE)) throw error;
  }
  const deadline = Date.now() + FENCE_WITHIN_MS;
  for (;;) {
    const { rowCount } = await pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [backendPid]);
    if (!rowCount) return;
    if (Date.now() > deadline) throw new Error(`session ${backendPid} still there after ${FENCE_WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, FENCE_POLL_MS));
  }
}

/**
 * Whether the transaction of `doubt` committed: its session fenced first (a COMMIT held up in
 * the network must not land after the answer), then the server's own record (txid_status).
 * Throws when the server cannot be asked now.
 */
export async function commitOutcome(pool: pg.Pool, doubt: TransactionDoubt): Promise<'committed' | 'aborted'> {
  await fenceSession(pool, doubt.backendPid);
  const { rows } = await pool.query<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [doubt.xid]);
  const status = rows[0]?.status;
  if (status === 'committed' || status === 'aborted') return status;
  throw new Error(`transaction ${doubt.xid} is ${status ?? 'no longer known'}`);
}
