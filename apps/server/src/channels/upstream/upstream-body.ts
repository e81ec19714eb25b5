/** The call a body comes from, stopped when its reader gives up. */
export interface AbortableCall {
  abort(error: Error): void;
}

/** Bytes held for a slow reader before the upstream socket is paused. */
const HIGH_WATER_BYTES = 64 * 1024;

/**
 * An upstream answer's body as undici delivers it, for exactly one reader: whole (`bytes()`, `text()`) or
 * piece by piece (async iteration). A plain queue rather than a Readable: one object and at
 * most one promise per piece on the hot path. Back-pressure reaches the socket: past
 * `HIGH_WATER_BYTES` unread the upstream is paused until the reader catches up.
 */
export class UpstreamBody implements AsyncIterator<Buffer> {
  private readonly pieces: Buffer[] = [];
  private queuedBytes = 0;
  private isOver = false;
  private failure: Error | undefined;
  private waiter: { resolve(result: IteratorResult<Buffer>): void; reject(error: Error): void } | undefined;
  private resumeUpstream: (() => void) | undefined;

  /** `call.abort` stops the upstream call (the reader gave up). */
  constructor(private readonly call: AbortableCall) {}

  /** From the undici handler: false asks undici to pause until `resume` is called. */
  push(piece: Buffer, resume: () => void): boolean {
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve({ value: piece, done: false });
      return true;
    }
    this.pieces.push(piece);
    this.queuedBytes += piece.length;
    if (this.queuedBytes < HIGH_WATER_BYTES) return true;
    this.resumeUpstream = resume;
    return false;
  }

  end(): void {
    this.isOver = true;
    this.settleWaiter();
  }

  fail(error: Error): void {
    if (this.isOver) return;
    this.failure = error;
    this.isOver = true;
    this.settleWaiter();
  }

  /** True once the body has ended cleanly and every piece was taken: `next()` would answer done. */
  get ended(): boolean {
    return this.isOver && this.failure === undefined && this.pieces.length === 0;
  }

  /** A piece that has already arrived, without waiting (undefined when none is queued). */
  takeQueued(): Buffer | undefined {
    const piece = this.pieces.shift();
    if (piece) {
      this.queuedBytes -= piece.length;
      if (this.resumeUpstream && this.queuedBytes < HIGH_WATER_BYTES) {
        const resume = this.resumeUpstream;
        this.resumeUpstream = undefined;
        resume();
      }
    }
    return piece;
  }

  next(): Promise<IteratorResult<Buffer>> {
    const piece = this.takeQueued();
    if (piece) return Promise.resolve({ value: piece, done: false });
    if (this.failure) return Promise.reject(this.failure);
    if (this.isOver) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    return this;
  }

  /** The reader stops early: the rest of the answer is not wanted. */
  async return(): Promise<IteratorResult<Buffer>> {
    if (!this.isOver) {
      this.call.abort(new UpstreamBodyAbandoned());
      this.isOver = true;
    }
    this.pieces.length = 0;
    return { value: undefined, done: true };
  }

  /** The whole body as it came: one piece as is, several joined once. */
  async bytes(): Promise<Buffer> {
    const pieces: Buffer[] = [];
    for (let next = await this.next(); !next.done; next = await this.next()) pieces.push(next.value);
    return pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
  }

  /** The whole body as UTF-8 text. */
  async text(): Promise<string> {
    return (await this.bytes()).toString('utf8');
  }

  private settleWaiter(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = undefined;
    if (this.failure) waiter.reject(this.failure);
    else waiter.resolve({ value: undefined, done: true });
  }
}

/** The reason given to undici when a reader abandons a body. */
export class UpstreamBodyAbandoned extends Error {
  readonly code = 'UND_ERR_ABORTED';
  constructor() {
    super('The relay stopped reading the upstream answer.');
    this.name = 'AbortError';
  }
}
