import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { splitForTokenizer } from './split-for-tokenizer';

/** Usual length of a piece handed to the tokenizer (UTF-16 units): few calls for ordinary text. */
export const MAX_PIECE = 2048;

/**
 * Longest stretch without a pre-token boundary handed to the tokenizer: BPE is quadratic in a
 * pre-token's length (one of 1,024 CJK characters costs ~20 ms; up to 64 the cost is per character).
 */
export const MAX_RUN = 64;

/**
 * UTF-8 bytes counted exactly per count (a prompt, or a completion); the rest is estimated.
 * Cold o200k counting costs up to ~10 µs a CJK character: at most about a second of CPU, in slices.
 */
export const EXACT_BUDGET = 256 * 1024;

/** Longest run on the event loop before other requests get a turn. */
const SLICE_MS = 8;

export type CountPiece = (text: string) => number;

/** Texts shorter than this are counted anew each time: hashing them would cost about what counting does. */
export const REMEMBERED_MIN_CHARS = 512;
/** Counts remembered at most (by text digest, never the text), forgotten all at once past it. */
const REMEMBERED_MAX = 16_384;

/**
 * Exact counts of long texts by their SHA-256: an agent resends the same system prompt, tool
 * definitions and earlier turns with every request (a Claude Code turn is 20–120 KB, nearly all
 * of it the last turn's), so only what is new is counted. Keyed by digest: no prompt is kept.
 */
export class RememberedCounts {
  private readonly counts = new Map<string, number>();

  digest(text: string): string {
    return createHash('sha256').update(text).digest('base64');
  }

  get(digest: string): number | undefined {
    return this.counts.get(digest);
  }

  set(digest: string, count: number): void {
    if (this.counts.size >= REMEMBERED_MAX) this.counts.clear();
    this.counts.set(digest, count);
  }
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Adds up the tokens of several texts (one request's prompt, or its completion) in bounded
 * time: no pre-token longer than {@link MAX_RUN} units, a pause for the event loop every
 * {@link SLICE_MS}, and past {@link EXACT_BUDGET} bytes one token per UTF-8 byte — a byte-level BPE
 * never makes more, so a caller cannot pad a prompt past the budget to be charged less.
 */
export class BoundedTokenCount {
  total = 0;
  private exactLeft: number;
  private sliceStarted = performance.now();

  constructor(
    private readonly countPiece: CountPiece,
    exactBudget = EXACT_BUDGET,
    private readonly remembered?: RememberedCounts,
  ) {
    this.exactLeft = exactBudget;
  }

  async add(text: string): Promise<void> {
    const bytes = Buffer.byteLength(text, 'utf8');
    // A long text counted exactly before is not counted again (within the exact budget, as then).
    const digest = this.remembered && text.length >= REMEMBERED_MIN_CHARS && bytes <= this.exactLeft ? this.remembered.digest(text) : undefined;
    const known = digest === undefined ? undefined : this.remembered?.get(digest);
    if (known !== undefined) {
      this.total += known;
      this.exactLeft -= bytes;
      return;
    }
    const before = this.total;
    await this.addCounted(text, bytes);
    if (digest !== undefined) this.remembered?.set(digest, this.total - before);
  }

  private async addCounted(text: string, bytes: number): Promise<void> {
    let exact = text;
    if (bytes > this.exactLeft) {
      const cut = unitsWithin(text, this.exactLeft);
      exact = text.slice(0, cut);
      this.total += bytes - Buffer.byteLength(exact, 'utf8');
      this.exactLeft = 0;
    } else {
      this.exactLeft -= bytes;
    }
    for (const piece of splitForTokenizer(exact, MAX_PIECE, MAX_RUN)) {
      this.total += this.countPiece(piece);
      if (performance.now() - this.sliceStarted > SLICE_MS) {
        await yieldToLoop();
        this.sliceStarted = performance.now();
      }
    }
  }
}

/** How many UTF-16 units of `text` fit in `budget` UTF-8 bytes, never splitting a surrogate pair. */
function unitsWithin(text: string, budget: number): number {
  let bytes = 0;
  let index = 0;
  while (index < text.length) {
    const unit = text.charCodeAt(index);
    const pair = unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length;
    const size = pair ? 4 : unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    if (bytes + size > budget) break;
    bytes += size;
    index += pair ? 2 : 1;
  }
  return index;
}
