import { invalidRequest, notFound, redactUpstreamError, type TaskCall, type TaskFailure, type TaskProvider, type TaskSnapshot } from '@chat-relay/wire';
import { Readable } from 'node:stream';
import { throttledWarn, type ThrottledWarn } from '../core/throttled-log';
import type { Logger } from '../logger';
import { CallerGone, type AbortLike } from '../core/caller-gone';
import type { ChannelRegistry, LiveChannel } from '../channels/channel-registry';
import { mapBounded } from '../core/map-bounded';
import { costOf, type PriceBook } from '../billing/price-book';
import { transportFailure } from '../channels/upstream/transport-failure';
import type { UpstreamClient, UpstreamResponse } from '../channels/upstream/upstream-client';
import { isStoreFault } from '../storage/store-faults';
import type { TaskRecord, TaskSettlement, TaskStore, UsageLogEntry } from '../storage/types';
import { taskProviderFor } from './task-kinds';

export interface TaskEngineOptions {
  /** How often due tasks are looked for; 0: never in the background (callers' reads still poll). */
  sweepMs: number;
  /** The first poll after a submit; each later one waits 1.5 × longer, up to `maxDelayMs` (RELAY_TASK_POLL_MS, RELAY_TASK_POLL_MAX_MS). */
  firstDelayMs: number;
  maxDelayMs: number;
  /** How long an instance holds a task it polls (others leave it alone meanwhile). */
  leaseMs: number;
  /** A task still running after this long is failed and its reservation given back (RELAY_TASK_TIMEOUT_MS). */
  giveUpAfterMs: number;
  /** A caller's read asks the upstream again only when the task was last heard of longer ago than this. */
  refreshAfterMs: number;
  /** Tasks polled per sweep at most, `concurrency` at a time. */
  batch: number;
  concurrency: number;
}

export const DEFAULT_TASK_ENGINE: TaskEngineOptions = {
  sweepMs: 1_000,
  firstDelayMs: 2_000,
  maxDelayMs: 60_000,
  leaseMs: 60_000,
  giveUpAfterMs: 24 * 3_600_000,
  refreshAfterMs: 1_000,
  batch: 50,
  concurrency: 4,
};

/**
 * The engine's options from the configuration: it sweeps at least as often as a first poll
 * falls due, never busier than 4 times a second.
 */
export function taskEngineOptions(config: { firstDelayMs: number; maxDelayMs: number; giveUpAfterMs: number }): TaskEngineOptions {
  return { ...DEFAULT_TASK_ENGINE, ...config, sweepMs: Math.max(250, Math.min(1_000, config.firstDelayMs)) };
}

export interface TaskEngineDeps {
  tasks: TaskStore;
  registry: ChannelRegistry;
  upstream: UpstreamClient;
  prices: PriceBook;
  logger: Logger;
  /** Hears of each task's usage row once it is written (metrics). */
  observeUsage?(entry: UsageLogEntry): void;
}

/** How a task ends, as `end` takes it. */
type Ending = Pick<TaskSettlement, 'status' | 'progress' | 'error' | 'result'> & { units?: number; unitVariant?: string };

/** The channel and key a task was submitted with, and its provider. */
interface TaskTarget {
  channel: LiveChannel;
  key: string;
  provider: TaskProvider<unknown>;
}

const iso = (ms: number): string => new Date(ms).toISOString();
const ROW_STATUS = { completed: 200, failed: 502, cancelled: 499 } as const;

/**
 * Runs submitted tasks to their end (SPEC §7a): polls each upstream in the background with a
 * growing back-off (and when a caller reads the task), records what it reports, and when the task
 * ends writes its one usage row in the same transaction that marks it ended — charged at its price
 * when completed, its reservation given back when failed, cancelled or given up. State lives in
 * the database: a restarted relay (or another instance) picks up where this one stopped.
 */
export class TaskEngine {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  /** Aborts upstream calls under way at shutdown. */
  private readonly stopped = new CallerGone();
  /** A database outage fails every sweep alike: one line per interval with a count. */
  private readonly warnStoreFault: ThrottledWarn;

  constructor(
    private readonly deps: TaskEngineDeps,
    readonly options: TaskEngineOptions = DEFAULT_TASK_ENGINE,
  ) {
    this.warnStoreFault = throttledWarn(deps.logger);
  }

  start(): void {
    if (this.options.sweepMs <= 0 || this.timer) return;
    void this.deps.tasks.countUnsettled().then(
      (running) => running > 0 && this.deps.logger.info({ running }, 'resuming tasks in flight'),
      (error: unknown) => this.deps.logger.warn({ err: error }, 'could not count tasks in flight'),
    );
    this.timer = setInterval(() => this.tick(), this.options.sweepMs);
    this.timer.unref();
  }

  /** When a task submitted now is first asked about. */
  firstPollAt(now = Date.now()): string {
    return iso(now + this.options.firstDelayMs);
  }

  /** Polls every due task once; answers how many. */
  async sweep(): Promise<number> {
    const now = Date.now();
    const due = await this.deps.tasks.claimDue(iso(now), iso(now + this.options.leaseMs), this.options.batch);
    // At shutdown the rest are left to their leases (the next start polls them).
    await mapBounded(due, this.options.concurrency, async (task) => (this.stopped.aborted ? undefined : this.poll(task)));
    return due.length;
  }

  /** A caller's read: the task as it is now, asked of the upstream when it runs and was not heard of lately. */
  async refresh(task: TaskRecord): Promise<TaskRecord> {
    if (task.settledAt !== null || Date.now() - Date.parse(task.updatedAt) < this.options.refreshAfterMs) return task;
    return (await this.poll(task)) ?? task;
  }

  /**
   * The owner deletes a task: cancelled upstream (or deleted there, when it has ended) where the
   * provider has such a call, its reservation given back if it was still running, then hidden.
   * An upstream that refuses (other than not knowing it) keeps the task as it was.
   */
  async delete(task: TaskRecord, signal: AbortLike): Promise<void> {
    const target = await this.targetOf(task);
    const cancel = typeof target === 'string' ? undefined : target.provider.buildCancel?.({ channel: target.channel.record, key: target.key, upstreamId: task.upstreamId });
    if (cancel && typeof target !== 'string') {
      const response = await this.send(target.channel, target.key, cancel, signal);
      const text = await response.body.text();
      if (response.statusCode >= 400 && response.statusCode !== 404) {
        throw target.provider.mapErrorResponse(response.statusCode, text, target.channel.record.keys).error;
      }
    }
    if (task.settledAt === null) {
      await this.end(task, { status: 'cancelled', progress: task.progress, error: { code: 'cancelled', message: 'Cancelled by its owner.' }, result: task.result });
    }
    await this.deps.tasks.markDeleted(task.accountId, task.id, iso(Date.now()));
  }

  /** A completed task's result (`variant`), streamed from the upstream as it comes; never held whole. */
  async openContent(task: TaskRecord, variant: string, signal: AbortLike): Promise<{ contentType: string; contentLength?: string; body: Readable }> {
    if (task.status !== 'completed') {
      throw invalidRequest(`Task '${task.id}' is ${task.status}: its content can be downloaded once it is completed.`, null, 'task_not_completed');
    }
    const target = await this.targetOf(task);
    if (typeof target === 'string') throw notFound('task_unavailable', `Task '${task.id}' is kept by an upstream channel that is no longer available on this relay.`);
    const call = target.provider.buildContent?.({ channel: target.channel.record, key: target.key, upstreamId: task.upstreamId, variant });
    if (!call) throw invalidRequest(`Task '${task.id}' has no content to download: its results are links in the task itself.`, null, 'no_content');
    const response = await this.send(target.channel, target.key, call, signal);
    if (response.statusCode >= 400) {
      throw target.provider.mapErrorResponse(response.statusCode, await response.body.text(), target.channel.record.keys).error;
    }
    return {
      contentType: response.header('content-type') ?? 'application/octet-stream',
      contentLength: response.header('content-length'),
      body: Readable.from(response.body),
    };
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.stopped.abort();
    await this.sweeping;
  }

  private tick(): void {
    if (this.sweeping) return;
    this.sweeping = this.sweep()
      .then(() => undefined)
      .catch((error: unknown) =>
        isStoreFault(error) ? this.warnStoreFault('sweep', error, 'task sweep failed: the database does not answer') : this.deps.logger.error({ err: error }, 'task sweep failed'),
      )
      .finally(() => (this.sweeping = undefined));
  }

  /** Asks the upstream once and records the answer; the task as it is afterwards (undefined if another settled it). */
  private async poll(task: TaskRecord): Promise<TaskRecord | undefined> {
    const now = Date.now();
    if (now - Date.parse(task.createdAt) > this.options.giveUpAfterMs) {
      return this.end(task, failure(task, 'task_timeout', 'The upstream did not finish the task in time; its reservation was given back.'));
    }
    const target = await this.targetOf(task);
    if (target === 'gone') return this.end(task, failure(task, 'channel_gone', 'The channel that ran the task was deleted from this relay.'));
    if (target === 'unavailable') return this.backOff(task, 'its channel is disabled or has no active key');
    let reading;
    try {
      const call = target.provider.buildPoll({ channel: target.channel.record, key: target.key, upstreamId: task.upstreamId });
      const response = await this.send(target.channel, target.key, call, this.stopped);
      const text = await response.body.text();
      if (response.statusCode >= 400) {
        const mapped = target.provider.mapErrorResponse(response.statusCode, text, target.channel.record.keys).error;
        if (response.statusCode !== 404) return this.backOff(task, `the upstream answered ${response.statusCode}: ${mapped.message}`);
        reading = { ok: false as const, gone: true as const, error: mapped };
      } else {
        const read = target.provider.readPoll(text, task.upstreamId);
        // Upstream words in an error may quote a key: never kept, logged or shown with it.
        reading = read.ok ? read : { ...read, error: redactUpstreamError(read.error, target.channel.record.keys) };
      }
    } catch (error) {
      return this.backOff(task, transportFailure(error).error.message);
    }
    if (!reading.ok) {
      if (reading.gone) return this.end(task, failure(task, 'task_not_found', `The upstream no longer knows the task: ${reading.error.message}`));
      return this.backOff(task, reading.error.message);
    }
    return this.record(task, reading.snapshot, now);
  }

  private record(task: TaskRecord, snapshot: TaskSnapshot, now: number): Promise<TaskRecord | undefined> {
    if (snapshot.state === 'completed' || snapshot.state === 'failed') {
      return this.end(task, { status: snapshot.state, progress: snapshot.state === 'completed' ? 100 : snapshot.progress, error: snapshot.error, result: snapshot.result, units: snapshot.units, unitVariant: snapshot.unitVariant });
    }
    const polls = task.polls + 1;
    return this.deps.tasks.update(
      task.id,
      {
        status: snapshot.state,
        progress: snapshot.progress,
        result: snapshot.result,
        startedAt: task.startedAt ?? (snapshot.state === 'in_progress' ? iso(now) : null),
        polls,
        nextPollAt: iso(now + this.delayAfter(polls)),
        leaseUntil: null,
      },
      iso(now),
    );
  }

  private backOff(task: TaskRecord, why: string): Promise<TaskRecord | undefined> {
    this.deps.logger.warn({ taskId: task.id, channelId: task.channelId, why }, 'task poll failed; asking again later');
    const now = Date.now();
    const polls = task.polls + 1;
    return this.deps.tasks.update(task.id, { polls, nextPollAt: iso(now + this.delayAfter(polls)), leaseUntil: null }, iso(now));
  }

  private delayAfter(polls: number): number {
    return Math.min(this.options.maxDelayMs, Math.round(this.options.firstDelayMs * 1.5 ** Math.min(polls, 40)));
  }

  /**
   * Ends the task once: its row charges it (completed: its units at its model's price) or gives
   * its reservation back. Answers the ended task, or — when another poll, instance or cancel
   * ended it first — the task as that one left it.
   */
  private async end(task: TaskRecord, ending: Ending): Promise<TaskRecord | undefined> {
    const now = Date.now();
    const completed = ending.status === 'completed';
    const units = completed ? (ending.units ?? task.units) : 0;
    const unitVariant = ending.unitVariant ?? task.unitVariant;
    const { cost, pricedBy } = completed ? await this.costOf(task, units, unitVariant) : { cost: 0, pricedBy: null };
    const usage: UsageLogEntry = {
      createdAt: iso(now),
      requestId: task.requestId,
      tokenId: task.tokenId,
      accountId: task.accountId,
      requestedModel: task.model,
      upstreamModel: task.upstreamModel,
      channelId: task.channelId,
      assistantId: null,
      stream: false,
      status: ROW_STATUS[ending.status],
      errorCode: completed ? null : (ending.error?.code ?? ending.status),
      promptTokens: 0,
      completionTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      endpoint: task.kind === 'video' ? 'videos' : 'music',
      units,
      usageEstimated: false,
      cost,
      quotaReserved: task.quotaReserved,
      latencyMs: now - Date.parse(task.createdAt),
      ttfbMs: null,
      clientIp: task.clientIp,
      attempts: 1,
      pricedBy,
    };
    const settled = await this.deps.tasks.settle(task.id, { ...ending, units, unitVariant, cost, completedAt: iso(now), usage });
    if (!settled) return this.deps.tasks.get(task.accountId, task.id);
    this.deps.logger.info({ taskId: task.id, requestId: task.requestId, status: ending.status, cost }, 'task ended');
    this.deps.observeUsage?.(usage);
    return settled;
  }

  /** The price of what completed, by the upstream model that served it; the reservation when the price cannot be read (quota stays held rather than freed). */
  private async costOf(task: TaskRecord, units: number, unitVariant: string | null): Promise<{ cost: number; pricedBy: string | null }> {
    const endpoint = task.kind === 'video' ? 'videos' : 'music';
    try {
      const applied = await this.deps.prices.priceFor(task.pricedModel, task.upstreamModel, endpoint);
      return { cost: costOf(applied?.price, { promptTokens: 0, completionTokens: 0, endpoint, units, unitVariant }), pricedBy: applied?.pricedBy ?? null };
    } catch (error) {
      this.deps.logger.error({ taskId: task.id, err: error }, 'price lookup failed; charging the reservation');
      return { cost: task.quotaReserved, pricedBy: null };
    }
  }

  /** The channel and key that submitted the task (another of its keys if that one is gone). */
  private async targetOf(task: TaskRecord): Promise<TaskTarget | 'gone' | 'unavailable'> {
    const channel = (await this.deps.registry.all()).find((live) => live.id === task.channelId);
    const provider = channel && taskProviderFor(task.kind, channel.record.type);
    if (!channel || !provider) return 'gone';
    if (!channel.record.enabled || !channel.hasActiveKey) return 'unavailable';
    return { channel, provider, key: channel.keyWithDigest(task.keyDigest) ?? channel.nextKey() };
  }

  /** A provider's call as it built it (its headers say the body's type). */
  private send(channel: LiveChannel, key: string, call: TaskCall, signal: AbortLike): Promise<UpstreamResponse> {
    return this.deps.upstream.post({ channel: channel.record, key, url: call.url, method: call.method, headers: call.headers, body: call.body, signal });
  }
}

function failure(task: TaskRecord, code: string, message: string): Ending {
  const error: TaskFailure = { code, message };
  return { status: 'failed', progress: task.progress, error, result: task.result };
}
