import type { Response } from 'express';

/**
 * The relayed requests under way, kept by the usage log (which already listens for each
 * response's close), so a shutdown can answer those still waiting and wait for every usage row
 * — without a listener of its own on every request.
 */
export class InFlightRequests {
  private readonly responses = new Set<Response>();
  private readonly rowsPending = new Set<Promise<void>>();
  private draining = false;

  add(res: Response): void {
    this.responses.add(res);
  }

  /** The response closed; `row` settles once its usage row is queued (tracked while draining), none when it was queued already. */
  closed(res: Response, row: Promise<void> | undefined): void {
    this.responses.delete(res);
    if (!this.draining || !row) return;
    this.rowsPending.add(row);
    void row.finally(() => this.rowsPending.delete(row));
  }

  /** From now on, rows of closing responses are waited for by `rowsWritten`. */
  startDraining(): void {
    this.draining = true;
  }

  /** Shutting down: `/readyz` tells the load balancer to send requests elsewhere. */
  get isDraining(): boolean {
    return this.draining;
  }

  get size(): number {
    return this.responses.size;
  }

  /** Responses not closed yet (a copy: answering one closes it). */
  open(): Response[] {
    return [...this.responses];
  }

  /** Resolves once every row of a response closed while draining is queued. */
  async rowsWritten(): Promise<void> {
    while (this.rowsPending.size > 0) await Promise.allSettled([...this.rowsPending]);
  }
}
