import type { Logger } from '../logger';
import type { WebhookEvents } from './webhook-events';

/**
 * What the routing and health code tells about channels, for webhooks: fire and forget, never
 * awaited by a request, never throwing. A key is told by its hint only.
 */
export interface ChannelEventSink {
  circuitOpened(channelId: number): void;
  circuitClosed(channelId: number): void;
  keyDisabled(channelId: number, keyHint: string, reason: string): void;
}

/** The channel events as `channel.*` webhook events, each naming the channel. */
export function channelEventSink(events: WebhookEvents, channelName: (channelId: number) => Promise<string>, logger: Logger): ChannelEventSink {
  const send = (type: 'channel.circuit_opened' | 'channel.circuit_closed' | 'channel.key_disabled', channelId: number, keyHint: string | null, reason: string | null) => {
    void (async () => {
      const name = await channelName(channelId).catch(() => '');
      await events.emit(type, { channel_id: channelId, channel_name: name, key_hint: keyHint, reason });
    })().catch((error: unknown) => logger.error({ err: error, channelId }, 'channel event not queued'));
  };
  return {
    circuitOpened: (channelId) => send('channel.circuit_opened', channelId, null, null),
    circuitClosed: (channelId) => send('channel.circuit_closed', channelId, null, null),
    keyDisabled: (channelId, keyHint, reason) => send('channel.key_disabled', channelId, keyHint, reason),
  };
}
