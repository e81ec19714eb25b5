import type pg from 'pg';
import { byPollTime, TASK_INSERT_COLUMNS, taskInsertValues, taskPatch, taskRecordOf, taskSettlement, type TaskAssignment, type TaskRow } from '../rows/task-row';
import type { NewTask, TaskListRequest, TaskPatch, TaskRecord, TaskSettlement, TaskStore } from '../task-types';
import { inTransaction } from './pg-pool';
import { idParam, Params, type Queryable } from './pg-rows';
import { writeUsage } from './pg-usage-writer';
import { PG_CODEC } from '../rows/codec';

const recordOf = (row: TaskRow): TaskRecord => taskRecordOf(row, PG_CODEC);

const INSERT = `INSERT INTO tasks (${TASK_INSERT_COLUMNS.join(', ')}) VALUES (${TASK_INSERT_COLUMNS.map((_, index) => `$${index + 1}`).join(', ')}) RETURNING *`;

/**
 * The submit's reservation (of its request, token and amount, no task's yet) made the task's; of
 * several equal ones (a caller's X-Request-Id reused) this instance's, which it took for this
 * submit. Locked first: one given back meanwhile is gone and not found.
 */
const HOLD_RESERVATION = `
  UPDATE quota_reservations SET task_id = $1 WHERE id =
    (SELECT id FROM quota_reservations WHERE request_id = $2 AND token_id = $3::bigint AND amount = $4 AND task_id IS NULL
     ORDER BY CASE WHEN instance_id = $5 THEN 0 ELSE 1 END, id LIMIT 1 FOR UPDATE)`;

/**
 * Up to `$3` due tasks leased until `$2`, oldest poll first. Rows another instance is claiming
 * right now are skipped rather than waited for, and a row it claimed since this statement began
 * is checked again once locked (its lease no longer ended): two instances never take the same task.
 */
const CLAIM_DUE = `
  WITH due AS MATERIALIZED (
    SELECT id FROM tasks WHERE settled_at IS NULL AND next_poll_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
    ORDER BY next_poll_at, id LIMIT $3 FOR UPDATE SKIP LOCKED
  )
  UPDATE tasks SET lease_until = $2 FROM due WHERE tasks.id = due.id RETURNING tasks.*`;

/**
 * Tasks in PostgreSQL, behaving as SqliteTaskStore does, for instances sharing the database:
 * claims skip what another instance holds, and a settlement's conditional UPDATE locks the task,
 * so of two settling at once the second finds it settled and writes nothing.
 */
export class PgTaskStore implements TaskStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly instanceId: string,
  ) {}

  /** `UPDATE … SET assignments` of the unsettled task `id`; undefined when there is none. */
  private async assign(db: Queryable, assignments: readonly TaskAssignment[], id: string): Promise<TaskRecord | undefined> {
    const params = new Params();
    const set = assignments.map(([column, value]) => `${column} = ${params.add(value)}`).join(', ');
    const { rows } = await db.query<TaskRow>(`UPDATE tasks SET ${set} WHERE id = ${params.add(id)} AND settled_at IS NULL RETURNING *`, params.values);
    return rows[0] ? recordOf(rows[0]) : undefined;
  }

  async create(task: NewTask): Promise<TaskRecord> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<TaskRow>(INSERT, taskInsertValues(task));
      if (!rows[0]) throw new Error('INSERT … RETURNING gave no row');
      // Also a free submit's: its reservation may count in periodic windows (issue 32); none found, nothing held.
      if (task.tokenId !== null) {
        await client.query(HOLD_RESERVATION, [task.id, task.requestId, idParam(task.tokenId), task.quotaReserved, this.instanceId]);
      }
      return recordOf(rows[0]);
    });
  }

  async get(accountId: number, id: string): Promise<TaskRecord | undefined> {
    const { rows } = await this.pool.query<TaskRow>('SELECT * FROM tasks WHERE id = $1 AND account_id = $2::bigint AND deleted_at IS NULL', [
      id,
      idParam(accountId),
    ]);
    return rows[0] ? recordOf(rows[0]) : undefined;
  }

  async getMany(accountId: number, ids: readonly string[]): Promise<TaskRecord[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<TaskRow>(
      'SELECT * FROM tasks WHERE id = ANY($1::text[]) AND account_id = $2::bigint AND deleted_at IS NULL',
      [ids, idParam(accountId)],
    );
    return rows.map(recordOf);
  }

  /**
   * Keyset pages by (created_at, id). `after` is looked up among the account's tasks of the kind,
   * deleted ones included (a page's last task deleted meanwhile still marks where the next page
   * starts); an id that is not one of them gives an empty page.
   */
  async list(request: TaskListRequest): Promise<{ rows: TaskRecord[]; hasMore: boolean }> {
    const params = new Params();
    const account = params.add(idParam(request.accountId));
    const kind = params.add(request.kind);
    const direction = request.order === 'asc' ? 'ASC' : 'DESC';
    const past = request.order === 'asc' ? '>' : '<';
    const after =
      request.after === undefined
        ? ''
        : `AND (created_at, id) ${past} (SELECT created_at, id FROM tasks WHERE id = ${params.add(request.after)} AND account_id = ${account}::bigint AND kind = ${kind})`;
    const { rows } = await this.pool.query<TaskRow>(
      `SELECT * FROM tasks WHERE account_id = ${account}::bigint AND kind = ${kind} AND deleted_at IS NULL ${after}
       ORDER BY created_at ${direction}, id ${direction} LIMIT ${params.add(request.limit + 1)}`,
      params.values,
    );
    return { rows: rows.slice(0, request.limit).map(recordOf), hasMore: rows.length > request.limit };
  }

  async claimDue(now: string, leaseUntil: string, limit: number): Promise<TaskRecord[]> {
    const { rows } = await this.pool.query<TaskRow>(CLAIM_DUE, [now, leaseUntil, limit]);
    return rows.map(recordOf).sort(byPollTime);
  }

  async countUnsettled(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>('SELECT COUNT(*) AS n FROM tasks WHERE settled_at IS NULL');
    return rows[0]?.n ?? 0;
  }

  async update(id: string, patch: TaskPatch, now: string): Promise<TaskRecord | undefined> {
    return this.assign(this.pool, taskPatch(patch, now), id);
  }

  async settle(id: string, settlement: TaskSettlement): Promise<TaskRecord | undefined> {
    return inTransaction(this.pool, async (client) => {
      // A settlement under way elsewhere holds the row: this one waits, then finds it settled.
      const ended = await this.assign(client, taskSettlement(settlement, new Date().toISOString()), id);
      if (!ended) return undefined;
      await writeUsage(client, [settlement.usage], id);
      return ended;
    });
  }

  async markDeleted(accountId: number, id: string, at: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE tasks SET deleted_at = $1 WHERE id = $2 AND account_id = $3::bigint AND deleted_at IS NULL', [
      at,
      id,
      idParam(accountId),
    ]);
    return (rowCount ?? 0) > 0;
  }
}
