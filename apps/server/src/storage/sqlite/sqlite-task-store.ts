import type Database from 'better-sqlite3';
import { byPollTime, TASK_INSERT_COLUMNS, taskInsertValues, taskPatch, taskRecordOf, taskSettlement, type TaskAssignment, type TaskRow } from '../rows/task-row';
import type { NewTask, TaskListRequest, TaskPatch, TaskRecord, TaskSettlement, TaskStore } from '../task-types';
import { SQLITE_CODEC } from '../rows/codec';
import { SqliteUsageWriter } from './sqlite-usage-writer';

const recordOf = (row: TaskRow): TaskRecord => taskRecordOf(row, SQLITE_CODEC);

/**
 * Tasks in SQLite. Every write is one statement or one transaction, and SQLite runs them one at
 * a time (several processes on the file included), so a claim, a poll's update and a settlement
 * never interleave: a task is settled — and charged — once.
 */
export class SqliteTaskStore implements TaskStore {
  private readonly writer: SqliteUsageWriter;
  private readonly insert: Database.Statement<unknown[], TaskRow>;
  private readonly holdReservation: Database.Statement<{ task: string; request: string; token: number; amount: number; me: string }>;
  private readonly createTask: (task: NewTask) => TaskRecord;
  private readonly settleTask: (id: string, settlement: TaskSettlement) => TaskRecord | undefined;
  /** Statements by their text: the few shapes a patch or a listing takes are prepared once. */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    instanceId: string,
  ) {
    this.writer = new SqliteUsageWriter(db);
    this.insert = db.prepare(
      `INSERT INTO tasks (${TASK_INSERT_COLUMNS.join(', ')}) VALUES (${TASK_INSERT_COLUMNS.map(() => '?').join(', ')}) RETURNING *`,
    );
    // The submit's reservation (of its request, token and amount, no task's yet); of several equal
    // ones (a caller's X-Request-Id reused) this instance's, which it took for this submit.
    this.holdReservation = db.prepare(
      `UPDATE quota_reservations SET task_id = @task WHERE id =
         (SELECT id FROM quota_reservations WHERE request_id = @request AND token_id = @token AND amount = @amount AND task_id IS NULL
          ORDER BY CASE WHEN instance_id = @me THEN 0 ELSE 1 END, id LIMIT 1)`,
    );
    this.createTask = db.transaction((task: NewTask) => {
      const row = this.insert.get(...taskInsertValues(task));
      if (!row) throw new Error('INSERT … RETURNING gave no row');
      // Also a free submit's: its reservation may count in periodic windows (issue 32); none found, nothing held.
      if (task.tokenId !== null) {
        this.holdReservation.run({ task: task.id, request: task.requestId, token: task.tokenId, amount: task.quotaReserved, me: instanceId });
      }
      return recordOf(row);
    });
    this.settleTask = db.transaction((id: string, settlement: TaskSettlement) => {
      const ended = this.assign(taskSettlement(settlement, new Date().toISOString()), id);
      // Settled already (by another poll, a cancel, another process): nothing is written.
      if (!ended) return undefined;
      this.writer.write([settlement.usage], id);
      return ended;
    });
  }

  private prepared(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** `UPDATE … SET assignments` of the unsettled task `id`; undefined when there is none. */
  private assign(assignments: readonly TaskAssignment[], id: string): TaskRecord | undefined {
    const row = this
      .prepared(`UPDATE tasks SET ${assignments.map(([column]) => `${column} = ?`).join(', ')} WHERE id = ? AND settled_at IS NULL RETURNING *`)
      .get(...assignments.map(([, value]) => value), id) as TaskRow | undefined;
    return row ? recordOf(row) : undefined;
  }

  async create(task: NewTask): Promise<TaskRecord> {
    return this.createTask(task);
  }

  async get(accountId: number, id: string): Promise<TaskRecord | undefined> {
    const row = this.prepared('SELECT * FROM tasks WHERE id = ? AND account_id = ? AND deleted_at IS NULL').get(id, accountId) as
      | TaskRow
      | undefined;
    return row ? recordOf(row) : undefined;
  }

  async getMany(accountId: number, ids: readonly string[]): Promise<TaskRecord[]> {
    if (ids.length === 0) return [];
    const rows = this
      .prepared('SELECT * FROM tasks WHERE id IN (SELECT value FROM json_each(?)) AND account_id = ? AND deleted_at IS NULL')
      .all(JSON.stringify(ids), accountId) as TaskRow[];
    return rows.map(recordOf);
  }

  /**
   * Keyset pages by (created_at, id). `after` is looked up among the account's tasks of the kind,
   * deleted ones included (a page's last task deleted meanwhile still marks where the next page
   * starts); an id that is not one of them gives an empty page.
   */
  async list(request: TaskListRequest): Promise<{ rows: TaskRecord[]; hasMore: boolean }> {
    const direction = request.order === 'asc' ? 'ASC' : 'DESC';
    const past = request.order === 'asc' ? '>' : '<';
    const after =
      request.after === undefined
        ? ''
        : `AND (created_at, id) ${past} (SELECT created_at, id FROM tasks WHERE id = @after AND account_id = @account AND kind = @kind)`;
    const rows = this
      .prepared(
        `SELECT * FROM tasks WHERE account_id = @account AND kind = @kind AND deleted_at IS NULL ${after}
         ORDER BY created_at ${direction}, id ${direction} LIMIT @limit`,
      )
      .all({
        account: request.accountId,
        kind: request.kind,
        limit: request.limit + 1,
        ...(request.after === undefined ? {} : { after: request.after }),
      }) as TaskRow[];
    return { rows: rows.slice(0, request.limit).map(recordOf), hasMore: rows.length > request.limit };
  }

  async claimDue(now: string, leaseUntil: string, limit: number): Promise<TaskRecord[]> {
    const rows = this
      .prepared(
        `UPDATE tasks SET lease_until = @leaseUntil WHERE id IN
           (SELECT id FROM tasks WHERE settled_at IS NULL AND next_poll_at <= @now AND (lease_until IS NULL OR lease_until < @now)
            ORDER BY next_poll_at, id LIMIT @limit)
         RETURNING *`,
      )
      .all({ now, leaseUntil, limit }) as TaskRow[];
    return rows.map(recordOf).sort(byPollTime);
  }

  async countUnsettled(): Promise<number> {
    return (this.prepared('SELECT COUNT(*) AS n FROM tasks WHERE settled_at IS NULL').get() as { n: number }).n;
  }

  async update(id: string, patch: TaskPatch, now: string): Promise<TaskRecord | undefined> {
    return this.assign(taskPatch(patch, now), id);
  }

  async settle(id: string, settlement: TaskSettlement): Promise<TaskRecord | undefined> {
    return this.settleTask(id, settlement);
  }

  async markDeleted(accountId: number, id: string, at: string): Promise<boolean> {
    return this.prepared('UPDATE tasks SET deleted_at = ? WHERE id = ? AND account_id = ? AND deleted_at IS NULL').run(at, id, accountId).changes > 0;
  }
}
