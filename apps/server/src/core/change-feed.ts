/**
 * What the caches of one instance hold that another instance may change: tokens (with their
 * accounts, read together on every request), channels (routing), prices (cost).
 */
export const CHANGE_TOPICS = ['tokens', 'channels', 'prices', 'catalogue', 'fallbacks'] as const;
export type ChangeTopic = (typeof CHANGE_TOPICS)[number];

/**
 * Cache invalidation across the instances sharing a database (issue 15). A write publishes its
 * topic; every instance's listeners for it run — this instance's at once, before `publish`
 * returns, the others' when the message arrives (Redis pub/sub, within a second). Lost messages
 * are covered by a periodic refresh that fires every topic.
 */
export interface ChangeFeed {
  publish(topic: ChangeTopic): void;
  /** Returns the unsubscribe function. */
  subscribe(topic: ChangeTopic, listener: () => void): () => void;
  close(): Promise<void>;
}

/** Listeners by topic, and firing them: the part every feed shares. */
export class ChangeListeners {
  private readonly byTopic = new Map<ChangeTopic, Set<() => void>>();

  add(topic: ChangeTopic, listener: () => void): () => void {
    let listeners = this.byTopic.get(topic);
    if (!listeners) this.byTopic.set(topic, (listeners = new Set()));
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  fire(topic: ChangeTopic): void {
    for (const listener of this.byTopic.get(topic) ?? []) listener();
  }

  fireAll(): void {
    for (const topic of CHANGE_TOPICS) this.fire(topic);
  }
}

/**
 * No Redis: a change is heard by this process's caches at once. With `refreshEveryMs` (a shared
 * database without Redis) every cache also reloads on that timer, the only way to see another
 * instance's changes.
 */
export class LocalChangeFeed implements ChangeFeed {
  private readonly listeners = new ChangeListeners();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(refreshEveryMs?: number) {
    if (refreshEveryMs !== undefined) {
      this.timer = setInterval(() => this.listeners.fireAll(), refreshEveryMs);
      this.timer.unref();
    }
  }

  publish(topic: ChangeTopic): void {
    this.listeners.fire(topic);
  }

  subscribe(topic: ChangeTopic, listener: () => void): () => void {
    return this.listeners.add(topic, listener);
  }

  close(): Promise<void> {
    clearInterval(this.timer);
    return Promise.resolve();
  }
}
