import type { Logger } from '../logger';
import { runChannelTest, type ChannelTestOptions, type ChannelTestRun } from './test-channel';
import type { ChannelRecord, ChannelStore } from '../storage/types';
import { CallerGone } from '../core/caller-gone';
import { changeDisabledKey, disabledKeyPositions, refusalReason } from './channel-checks-keys';
import { testsWithChat } from './channel-checks-probes';
import { reenabledKey } from '../storage/key-states';
import { ChannelCheckLog } from './channel-checks-log';
import type { ChannelHealth } from './channel-health';
import { LiveChannel, type ChannelRegistry } from './channel-registry';
import { isGlob } from '../core/model-pattern';
import type { UpstreamClient } from './upstream/upstream-client';
import { mapBounded } from '../core/map-bounded';

/** Channels tested at once in one round: a few upstream calls, never a burst. */
const DEFAULT_CONCURRENCY = 4;

export interface ChannelChecksOptions {
  /** Time from the end of one round to the start of the next (RELAY_CHANNEL_CHECK_MS); 0: no schedule. */
  intervalMs: number;
  /** Channels tested at once. */
  concurrency?: number;
}

export interface ChannelChecksDeps {
  channels: ChannelStore;
  registry: ChannelRegistry;
  health: ChannelHealth;
  upstream: UpstreamClient;
  logger: Logger;
  /** Where each test's answer is kept (`last_check`); the channel routes record manual tests in it too. */
  log?: ChannelCheckLog;
}

/** What one round did. */
export interface ChannelCheckRound {
  channelsChecked: number;
  circuitsClosed: number;
  keysReEnabled: number;
}

/**
 * What a scheduled test asks for. A chat test needs a model: a plain name or mapping key the
 * channel lists, else a synced upstream name one of its globs takes for chat — none (a glob never
 * synced): undefined, the channel is skipped. A channel serving no chat gets its type's free
 * request, which names no model.
 */
function scheduledTest(record: ChannelRecord): Pick<ChannelTestOptions, 'model'> | undefined {
  const channel = new LiveChannel(record);
  if (!testsWithChat(channel)) return {};
  const named = record.models.find((model) => !isGlob(model)) ?? Object.keys(record.modelMapping)[0];
  const model = named ?? channel.listableModels().find((listed) => channel.servesOn(listed, 'chat'));
  return model === undefined ? undefined : { model };
}

/**
 * The scheduled channel check (issue 16): every `intervalMs` it tests, with one real minimal
 * request each (chat, or the type's free request for a channel serving none: runChannelTest),
 * (a) enabled channels whose circuit is open — a passing test closes it, as a passing trial
 * request does, and the cluster's circuits tell the other instances — and (b) each
 * key the relay disabled after an upstream 401/403, alone: a passing test puts it back in
 * rotation, a refusal keeps it out with the latest reason. A channel the admin disabled
 * (`enabled: false`) is never tested nor re-enabled: that is the operator's decision.
 *
 * Rounds never overlap (the next is scheduled when one ends, and `runOnce` during a round joins
 * it), so at most one check per channel is in flight. With several instances on one database
 * each runs its own rounds: two may test and re-enable the same key, which is harmless — the
 * writes are idempotent.
 */
export class ChannelChecks {
  readonly log: ChannelCheckLog;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<ChannelCheckRound> | undefined;
  private readonly stopping = new CallerGone();

  constructor(
    private readonly deps: ChannelChecksDeps,
    private readonly options: ChannelChecksOptions,
  ) {
    this.log = deps.log ?? new ChannelCheckLog();
  }

  /** Starts the schedule; nothing with `intervalMs` 0. Timers never keep the process alive. */
  start(): void {
    if (this.options.intervalMs <= 0 || this.stopping.aborted || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.runOnce()
        .catch((error: unknown) => this.deps.logger.error({ err: error }, 'scheduled channel check failed'))
        .finally(() => this.start());
    }, this.options.intervalMs);
    this.timer.unref();
  }

  /** One round now (the schedule's, or a test's); joins the round under way, if any. */
  runOnce(): Promise<ChannelCheckRound> {
    if (this.stopping.aborted) return Promise.resolve({ channelsChecked: 0, circuitsClosed: 0, keysReEnabled: 0 });
    this.round ??= this.checkAll().finally(() => {
      this.round = undefined;
    });
    return this.round;
  }

  /** Stops the schedule and aborts the tests under way (shutdown: before the upstream pools close). */
  async close(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.round;
  }

  private async checkAll(): Promise<ChannelCheckRound> {
    const round: ChannelCheckRound = { channelsChecked: 0, circuitsClosed: 0, keysReEnabled: 0 };
    let records: ChannelRecord[];
    try {
      records = await this.deps.channels.listAll();
    } catch (error) {
      this.deps.logger.error({ err: error }, 'scheduled channel check could not list the channels');
      return round;
    }
    const due = records.filter(
      (record) => record.enabled && (this.circuitOpen(record.id) || disabledKeyPositions(record).length > 0),
    );
    await mapBounded(due, this.options.concurrency ?? DEFAULT_CONCURRENCY, async (record) => {
      if (this.stopping.aborted) return;
      try {
        const outcome = await this.checkChannel(record);
        if (!outcome) return;
        round.channelsChecked += 1;
        round.circuitsClosed += outcome.circuitsClosed;
        round.keysReEnabled += outcome.keysReEnabled;
      } catch (error) {
        this.deps.logger.warn({ err: error, channelId: record.id }, 'scheduled channel check failed');
      }
    });
    return round;
  }

  private circuitOpen(channelId: number): boolean {
    return this.deps.health.snapshot(channelId).state !== 'closed';
  }

  private async checkChannel(record: ChannelRecord): Promise<Omit<ChannelCheckRound, 'channelsChecked'> | undefined> {
    const test = scheduledTest(record);
    if (!test) {
      this.deps.logger.debug({ channelId: record.id }, 'scheduled channel check skipped: no chat model to test with');
      return undefined;
    }
    const outcome = { circuitsClosed: 0, keysReEnabled: 0 };
    if (this.circuitOpen(record.id)) {
      const { result } = await this.test(record, test);
      // Checked again: a trial request may have closed it meanwhile (then there is nothing to count).
      if (result.ok && !this.stopping.aborted && this.circuitOpen(record.id)) {
        this.deps.health.recordSuccess(record.id);
        this.deps.logger.info({ channelId: record.id }, 'channel circuit closed: its scheduled check passed');
        outcome.circuitsClosed += 1;
      }
    }
    for (const position of disabledKeyPositions(record)) {
      if (this.stopping.aborted) break;
      if (await this.checkKey(record, position, test)) outcome.keysReEnabled += 1;
    }
    return outcome;
  }

  /** Tests one disabled key alone; true when it passed and is back in rotation. */
  private async checkKey(record: ChannelRecord, position: number, test: Pick<ChannelTestOptions, 'model'>): Promise<boolean> {
    const key = record.keys[position] ?? '';
    const { result, keyRejected } = await this.test(record, { ...test, keyIndex: position });
    if (this.stopping.aborted) return false;
    const store = { channels: this.deps.channels, registry: this.deps.registry };
    if (result.ok) {
      const now = new Date().toISOString();
      const enabled = await changeDisabledKey(store, record.id, { position, key }, () => reenabledKey(now));
      // The position, never the key nor its hint: enough to find it in `key_status`.
      if (enabled) this.deps.logger.info({ channelId: record.id, keyIndex: position }, 'channel key re-enabled: its scheduled check passed');
      return enabled;
    }
    if (keyRejected) {
      // Still refused: it stays disabled, with the upstream's latest word (written only when it changed).
      const reason = refusalReason(result.error);
      await changeDisabledKey(store, record.id, { position, key }, (state) => (state.reason === reason ? undefined : { ...state, reason }));
    }
    return false;
  }

  private async test(record: ChannelRecord, options: ChannelTestOptions): Promise<ChannelTestRun> {
    const run = await runChannelTest(this.deps.upstream, record, { ...options, signal: this.stopping });
    if (!this.stopping.aborted) this.log.record(record.id, run.result, 'scheduled');
    return run;
  }
}
