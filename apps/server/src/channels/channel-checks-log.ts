import type { ChannelCheck, ChannelTestResult } from '@chat-relay/contract';

export type ChannelCheckTrigger = ChannelCheck['trigger'];

/**
 * Each channel's last test on this instance (`last_check` in the channel's view): the admin's
 * `POST /api/channels/{id}/test` or the scheduled check. In memory only — one entry per channel,
 * dropped with the channel — so a restart or another instance starts with none.
 */
export class ChannelCheckLog {
  private readonly checks = new Map<number, ChannelCheck>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  record(channelId: number, result: ChannelTestResult, trigger: ChannelCheckTrigger): ChannelCheck {
    const check: ChannelCheck = { ...result, at: this.now().toISOString(), trigger };
    this.checks.set(channelId, check);
    return check;
  }

  last(channelId: number): ChannelCheck | null {
    return this.checks.get(channelId) ?? null;
  }

  forget(channelId: number): void {
    this.checks.delete(channelId);
  }
}
