import type { BpeRanks } from './bpe-ranks';

const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;

/** o200k_base's pre-tokenizer, as tiktoken defines it: the pieces BPE merges within. */
export const O200K_SPLIT = new RegExp(
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  'gu',
);

/** No pair there, or one that is no token: never merged. */
const NO_MERGE = 0x7fffffff;

/**
 * Counts a text's tokens the way tiktoken encodes it: the text cut into pieces by the
 * pre-tokenizer, each piece a token when its UTF-8 bytes are one, else its bytes merged pair by
 * pair — always the adjacent pair whose joined bytes have the lowest rank, the leftmost on a tie —
 * until no pair is a token; the parts left are its tokens. Special tokens are text like any other
 * (a caller's `<|endoftext|>` is counted, not refused). Counts only: no token list is built, and
 * the working arrays are reused from piece to piece. Merged pieces' counts are kept, up to
 * `rememberedMax` of them (the oldest forgotten first).
 */
export class BpeCounter {
  private bytes = new Uint8Array(256);
  private starts = new Int32Array(257);
  private ranks = new Int32Array(257);
  private readonly merged = new Map<string, number>();
  private readonly split: RegExp;
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly table: BpeRanks,
    split: RegExp,
    private readonly rememberedMax: number,
  ) {
    // Its own copy: `lastIndex` is this counter's.
    this.split = new RegExp(split.source, split.flags);
  }

  count(text: string): number {
    const { split } = this;
    split.lastIndex = 0;
    let total = 0;
    for (let match = split.exec(text); match !== null; match = split.exec(text)) {
      const piece = match[0];
      // The pattern never matches nothing; were it to, the search moves on instead of spinning.
      if (piece === '') split.lastIndex += 1;
      else total += this.countPiece(piece);
    }
    return total;
  }

  private countPiece(piece: string): number {
    if (piece.length === 1 && piece.charCodeAt(0) < 0x80) return 1;
    const length = this.encode(piece);
    if (this.table.rankOf(this.bytes, 0, length) !== -1) return 1;
    const known = this.merged.get(piece);
    if (known !== undefined) return known;
    const count = this.merge(length);
    if (this.merged.size >= this.rememberedMax) this.merged.delete(this.merged.keys().next().value as string);
    this.merged.set(piece, count);
    return count;
  }

  /** `piece` as UTF-8 in `bytes`; its length in bytes. */
  private encode(piece: string): number {
    if (this.bytes.length < piece.length * 3) this.bytes = new Uint8Array(piece.length * 3);
    const { bytes } = this;
    for (let index = 0; index < piece.length; index += 1) {
      const unit = piece.charCodeAt(index);
      if (unit >= 0x80) return this.encoder.encodeInto(piece, bytes).written;
      bytes[index] = unit;
    }
    return piece.length;
  }

  /** tiktoken's byte-pair merge of `bytes[0, length)`: how many parts are left. */
  private merge(length: number): number {
    if (this.starts.length <= length) {
      this.starts = new Int32Array(length + 1);
      this.ranks = new Int32Array(length + 1);
    }
    const { starts, ranks } = this;
    for (let at = 0; at <= length; at += 1) starts[at] = at;
    let bounds = length + 1;
    for (let at = 0; at < bounds; at += 1) ranks[at] = this.pairRank(at, bounds);
    while (bounds > 1) {
      let lowest = NO_MERGE;
      let at = -1;
      for (let index = 0; index < bounds - 1; index += 1) {
        const rank = ranks[index] as number;
        if (rank < lowest) {
          lowest = rank;
          at = index;
        }
      }
      if (at === -1) break;
      // The pair at `at` becomes one part: the boundary between them goes, and so does its rank.
      starts.copyWithin(at + 1, at + 2, bounds);
      ranks.copyWithin(at, at + 1, bounds);
      bounds -= 1;
      ranks[at] = this.pairRank(at, bounds);
      if (at > 0) ranks[at - 1] = this.pairRank(at - 1, bounds);
    }
    return bounds - 1;
  }

  /** The rank of the part at `at` joined with the next one, or NO_MERGE. */
  private pairRank(at: number, bounds: number): number {
    if (at + 2 >= bounds) return NO_MERGE;
    const rank = this.table.rankOf(this.bytes, this.starts[at] as number, this.starts[at + 2] as number);
    return rank === -1 ? NO_MERGE : rank;
  }
}
