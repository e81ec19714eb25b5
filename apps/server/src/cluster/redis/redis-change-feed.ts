import type Redis from 'ioredis';
import { z } from 'zod';
import type { Logger } from '../../logger';
import { CHANGE_TOPICS, ChangeListeners, type ChangeFeed, type ChangeTopic } from '../../core/change-feed';
import type { RedisSubscriber } from './redis-subscriber';
import { parseMessage } from './parse-message';
import { describeError, throttledWarn, type ThrottledWarn } from '../../core/throttled-log';

export interface RedisChangeFeedOptions {
  /** The command connection: PUBLISH goes through it. */
  redis: Redis;
  subscriber: RedisSubscriber;
  keyPrefix: string;
  instanceId: string;
  /** Every topic fires this often even without a message: lost messages are covered. */
  refreshMs: number;
  logger: Logger;
}

/** What goes over `${prefix}changes`. */
const changeMessage = z.object({ origin: z.string(), topic: z.enum(CHANGE_TOPICS) });

/**
 * The change feed of instances sharing a Redis. `publish` runs this instance's listeners before it
 * returns, then PUBLISHes the topic with this instance's id; the others' listeners run when the
 * message arrives (this instance skips its own). Pub/sub forgets what a disconnected subscriber
 * missed, so every topic also fires after the subscriber is back, and every `refreshMs` anyway.
 * Publishing while Redis is away fails at once and is logged: it never throws or waits.
 */
export class RedisChangeFeed implements ChangeFeed {
  private readonly listeners = new ChangeListeners();
  private readonly channel: string;
  private readonly refreshTimer: NodeJS.Timeout;
  private readonly warn: ThrottledWarn;

  constructor(private readonly options: RedisChangeFeedOptions) {
    this.channel = `${options.keyPrefix}changes`;
    this.warn = throttledWarn(options.logger);
    options.subscriber.handle(this.channel, (message) => this.receive(message));
    options.subscriber.onResubscribed(() => this.fireSafely(() => this.listeners.fireAll()));
    this.refreshTimer = setInterval(() => this.fireSafely(() => this.listeners.fireAll()), options.refreshMs);
    this.refreshTimer.unref();
  }

  publish(topic: ChangeTopic): void {
    this.listeners.fire(topic);
    const message = JSON.stringify({ origin: this.options.instanceId, topic });
    this.options.redis.publish(this.channel, message).catch((error: unknown) => {
      this.warn('publish', error, `change of ${topic} not published (redis); other instances see it at their next refresh`);
    });
  }

  subscribe(topic: ChangeTopic, listener: () => void): () => void {
    return this.listeners.add(topic, listener);
  }

  async close(): Promise<void> {
    clearInterval(this.refreshTimer);
  }

  private receive(text: string): void {
    const message = parseMessage(changeMessage, text);
    if (!message) {
      this.warn('message', text.slice(0, 200), 'change message not understood; ignored');
      return;
    }
    if (message.origin === this.options.instanceId) return;
    this.fireSafely(() => this.listeners.fire(message.topic));
  }

  /** A listener that throws on a message or a timer is logged, not thrown into the process. */
  private fireSafely(fire: () => void): void {
    try {
      fire();
    } catch (error) {
      this.options.logger.error({ error: describeError(error) }, 'change listener failed');
    }
  }
}
