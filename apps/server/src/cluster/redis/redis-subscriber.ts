import type Redis from 'ioredis';
import type { Logger } from '../../logger';
import { describeError } from '../../core/throttled-log';

/**
 * The one subscriber connection of an instance, shared by the change feed and the circuits: it
 * routes each channel's messages to its handler, and tells `onResubscribed` listeners when it is
 * subscribed again after having been disconnected — whatever was published meanwhile is lost.
 *
 * ioredis' own resubscription is off (see redis-connection.ts): subscribing here on every 'ready'
 * lets "subscribed again" mean the SUBSCRIBE was answered, so nothing published after the
 * listeners reload can be missed. A PING every `healthCheckMs` notices a connection that went
 * silent (a blackholed network does not close it) and reconnects it.
 */
export class RedisSubscriber {
  private readonly handlers = new Map<string, (message: string) => void>();
  private readonly resubscribedListeners: Array<() => void> = [];
  /** Set when the connection is lost (or never came up): the next subscription follows a gap. */
  private missedMessages = false;
  private readonly healthTimer: NodeJS.Timeout;
  private markSubscribed: () => void = () => undefined;
  /** Resolves once every channel handled so far is subscribed (start-up waits for it, bounded). */
  readonly subscribed = new Promise<void>((resolve) => {
    this.markSubscribed = resolve;
  });

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
    healthCheckMs: number,
  ) {
    redis.on('message', (channel: string, message: string) => this.handlers.get(channel)?.(message));
    redis.on('ready', () => void this.subscribeAll());
    redis.on('reconnecting', () => {
      this.missedMessages = true;
    });
    this.healthTimer = setInterval(() => void this.checkHealth(), healthCheckMs);
    this.healthTimer.unref();
  }

  /** Routes `channel`'s messages to `handler`, subscribing now when connected. */
  handle(channel: string, handler: (message: string) => void): void {
    this.handlers.set(channel, handler);
    if (this.redis.status === 'ready') void this.subscribe([channel]);
  }

  onResubscribed(listener: () => void): void {
    this.resubscribedListeners.push(listener);
  }

  close(): void {
    clearInterval(this.healthTimer);
  }

  private async subscribeAll(): Promise<void> {
    const gap = this.missedMessages;
    if (!(await this.subscribe([...this.handlers.keys()]))) return;
    this.missedMessages = false;
    this.markSubscribed();
    if (!gap) return;
    this.logger.info('redis subscriber: subscribed again; reloading what may have changed meanwhile');
    for (const listener of this.resubscribedListeners) listener();
  }

  private async subscribe(channels: string[]): Promise<boolean> {
    if (channels.length === 0) return true;
    try {
      await this.redis.subscribe(...channels);
      return true;
    } catch (error) {
      // Lost again before the answer: the next 'ready' tries again.
      this.logger.warn({ error: describeError(error) }, 'redis subscriber: subscribe failed');
      return false;
    }
  }

  private async checkHealth(): Promise<void> {
    if (this.redis.status !== 'ready') return;
    try {
      await this.redis.ping();
    } catch (error) {
      if (this.redis.status !== 'ready') return;
      this.logger.warn({ error: describeError(error) }, 'redis subscriber: no answer to PING; reconnecting');
      this.missedMessages = true;
      this.redis.disconnect(true);
    }
  }
}
