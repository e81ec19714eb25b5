import { readFile } from 'node:fs/promises';

/** Lines decoded between two yields to the event loop (o200k: 200,000 lines in all). */
const LINES_PER_TURN = 25_000;

const NOT_BASE64 = 255;
const BASE64_VALUE = new Uint8Array(256).fill(NOT_BASE64);
for (const [index, char] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) BASE64_VALUE[char.charCodeAt(0)] = index;

// Global names looked up once: in a vm context (jest's) every use of a global inside a loop goes
// through the context's interceptor: reading o200k took 693 ms there against ~100 in node (issue 30).
const { imul } = Math;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * A byte-level BPE's merge ranks, held as bytes rather than as JavaScript strings and maps: every
 * token's bytes one after another in one pool, where each rank's bytes start, and an
 * open-addressing hash table from bytes to rank. o200k's 200,000 tokens take ~4.2 MB of typed
 * arrays — outside the garbage collector's heap, which it never marks — where the tokenizer
 * package's string map, byte arrays and rank list held ~15 MB of heap that every major GC walked
 * (issue 30). Lookups are by bytes, as tiktoken's own are.
 */
export class BpeRanks {
  private constructor(
    private readonly pool: Uint8Array,
    /** `starts[rank]` to `starts[rank + 1]`: the token's bytes in the pool (equal for a gap). */
    private readonly starts: Uint32Array,
    /** rank + 1 of the token hashed there, 0 for an empty slot. */
    private readonly slots: Int32Array,
  ) {}

  /** The rank of `bytes[from, to)`, or -1 when it is no token. */
  rankOf(bytes: Uint8Array, from: number, to: number): number {
    const { pool, starts, slots } = this;
    const mask = slots.length - 1;
    const length = to - from;
    for (let slot = hashOf(bytes, from, to) & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot] as number;
      if (held === 0) return -1;
      const rank = held - 1;
      const start = starts[rank] as number;
      if ((starts[rank + 1] as number) - start !== length) continue;
      let at = 0;
      while (at < length && pool[start + at] === bytes[from + at]) at += 1;
      if (at === length) return rank;
    }
  }

  /** How many ranks the table covers (gaps included). */
  get size(): number {
    return this.starts.length - 1;
  }

  /** The bytes of `rank` (empty for a gap). */
  bytesOf(rank: number): Uint8Array {
    return this.pool.subarray(this.starts[rank], this.starts[rank + 1]);
  }

  /**
   * Reads a `.tiktoken` file — one `base64-token rank` a line, ranks ascending, a skipped rank
   * left as a gap — yielding to the event loop every {@link LINES_PER_TURN} lines.
   */
  static async read(path: string): Promise<BpeRanks> {
    const file = await readFile(path);
    // Sized exactly, before any is decoded: no array grown line by line, no copy at the end.
    const { bytes, lastRank } = measure(file, path);
    const pool = new Uint8Array(bytes);
    const starts = new Uint32Array(lastRank + 2);
    let ranks = 0;
    let used = 0;
    let lines = 0;
    for (let start = 0; start < file.length; ) {
      let end = file.indexOf(0x0a, start);
      if (end === -1) end = file.length;
      lines += 1;
      if (end > start) {
        const space = file.indexOf(0x20, start);
        const rank = space === -1 || space > end ? -1 : decimalAt(file, space + 1, end);
        if (rank < ranks) throw new Error(`${path}: line ${lines} is not "token rank" in ascending order`);
        if (rank > lastRank) throw new Error(`${path}: line ${lines} has rank ${rank}, above the last line's ${lastRank}: ranks must ascend`);
        // A skipped rank is a gap: no bytes.
        while (ranks < rank) starts[++ranks] = used;
        const written = decodeBase64(file, start, space, pool, used);
        if (written <= 0) throw new Error(`${path}: line ${lines} holds no base64 token`);
        used += written;
        starts[++ranks] = used;
      }
      start = end + 1;
      if (lines % LINES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return BpeRanks.of(pool, starts.subarray(0, ranks + 1));
  }

  /** The table over a pool and each rank's start in it (`starts.length` = ranks + 1). */
  private static of(pool: Uint8Array, starts: Uint32Array): BpeRanks {
    const ranks = starts.length - 1;
    // At most half full: short probe runs.
    let capacity = 1;
    while (capacity < ranks * 2) capacity *= 2;
    const slots = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let rank = 0; rank < ranks; rank += 1) {
      const from = starts[rank] as number;
      const to = starts[rank + 1] as number;
      if (to === from) continue;
      let slot = hashOf(pool, from, to) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = rank + 1;
    }
    return new BpeRanks(pool, starts, slots);
  }
}

/**
 * The bytes a `.tiktoken` file's tokens decode to (at most: a line that is not base64 is refused
 * when read), and the rank on its last line — the highest, when the ranks ascend (reading
 * refuses any above it as out of order).
 */
function measure(file: Buffer, path: string): { bytes: number; lastRank: number } {
  let bytes = 0;
  let lines = 0;
  let last = { line: 0, from: 0, to: 0 };
  for (let start = 0; start < file.length; ) {
    let end = file.indexOf(0x0a, start);
    if (end === -1) end = file.length;
    lines += 1;
    const space = file.indexOf(0x20, start);
    if (end > start && space !== -1 && space < end) {
      let chars = space - start;
      while (chars > 0 && file[start + chars - 1] === 0x3d) chars -= 1;
      bytes += (chars * 3) >> 2;
      last = { line: lines, from: space + 1, to: end };
    } else if (end > start) {
      last = { line: lines, from: end, to: end };
    }
    start = end + 1;
  }
  const lastRank = last.line === 0 ? -1 : decimalAt(file, last.from, last.to);
  if (last.line !== 0 && lastRank === -1) throw new Error(`${path}: line ${last.line} is not "token rank" in ascending order`);
  return { bytes, lastRank };
}

/** The decimal number `bytes[from, to)` spells, or -1 when it is empty or holds anything but digits. */
function decimalAt(bytes: Uint8Array, from: number, to: number): number {
  if (to <= from || to - from > 9) return -1;
  let value = 0;
  for (let at = from; at < to; at += 1) {
    const digit = (bytes[at] as number) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** FNV-1a of `bytes[from, to)`. */
function hashOf(bytes: Uint8Array, from: number, to: number): number {
  let hash = FNV_OFFSET;
  for (let at = from; at < to; at += 1) hash = imul(hash ^ (bytes[at] as number), FNV_PRIME);
  return hash >>> 0;
}

/** Decodes the base64 text `source[from, to)` into `target` at `at`; the bytes written, or -1 when it is not base64. */
function decodeBase64(source: Uint8Array, from: number, to: number, target: Uint8Array, at: number): number {
  let end = to;
  while (end > from && source[end - 1] === 0x3d) end -= 1;
  let bits = 0;
  let held = 0;
  let written = 0;
  for (let index = from; index < end; index += 1) {
    const value = BASE64_VALUE[source[index] as number] as number;
    if (value === NOT_BASE64) return -1;
    bits = ((bits << 6) | value) & 0xffff;
    held += 6;
    if (held >= 8) {
      held -= 8;
      target[at + written] = (bits >> held) & 0xff;
      written += 1;
    }
  }
  return written;
}
