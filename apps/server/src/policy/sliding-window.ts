interface Slot {
  firstAt: number;
  lastAt: number;
  amount: number;
}

/**
 * A sliding-window sum (requests or tokens over the last minute). Amounts added within `slotMs`
 * of each other share one slot, so a window holds at most `windowMs / slotMs + 1` slots however
 * busy the token is. A slot leaves the window `windowMs` after its *last* addition: counting is
 * exact for sparse traffic and errs on the strict side (never early) for bursts.
 */
export class SlidingWindow {
  private slots: Slot[] = [];
  private total = 0;

  constructor(
    private readonly windowMs: number,
    private readonly slotMs: number,
  ) {}

  add(at: number, amount: number): void {
    const tail = this.slots[this.slots.length - 1];
    // Also absorbs a clock that stepped back: slots stay ordered by `lastAt`.
    if (tail && at < tail.firstAt + this.slotMs) {
      tail.amount += amount;
      tail.lastAt = Math.max(tail.lastAt, at);
    } else {
      this.slots.push({ firstAt: at, lastAt: at, amount });
    }
    this.total += amount;
  }

  /** Forgets what has left the window by `now`; returns what is still in it. */
  sum(now: number): number {
    let expired = 0;
    for (const slot of this.slots) {
      if (slot.lastAt + this.windowMs > now) break;
      this.total -= slot.amount;
      expired++;
    }
    if (expired > 0) this.slots.splice(0, expired);
    if (this.slots.length === 0) this.total = 0;
    return this.total;
  }

  /** Milliseconds from `now` until the sum drops below `limit` (0 when it already has). */
  msUntilBelow(limit: number, now: number): number {
    let remaining = this.sum(now);
    for (const slot of this.slots) {
      if (remaining < limit) break;
      remaining -= slot.amount;
      if (remaining < limit) return slot.lastAt + this.windowMs - now;
    }
    return 0;
  }

  /** Milliseconds from `now` until everything counted so far has left the window. */
  msUntilEmpty(now: number): number {
    const tail = this.slots[this.slots.length - 1];
    return tail ? Math.max(0, tail.lastAt + this.windowMs - now) : 0;
  }

  get slotCount(): number {
    return this.slots.length;
  }
}
