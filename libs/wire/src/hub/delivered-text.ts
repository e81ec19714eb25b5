/** Pieces joined into one string at a time; a join costs about a microsecond. */
const PIECES_PER_BLOCK = 32;

/**
 * The text a stream delivered to its caller, kept for billing a stream cut short (its tokens are
 * counted then). A piece is a token or two — four characters or so — and a string of its own
 * costs a header and an array slot several times that, plus, when it was cut out of the upstream
 * chunk's text, that whole chunk kept alive behind it. Every `PIECES_PER_BLOCK` pieces are joined
 * into one flat string: a 4,000-token answer is held in ~125 strings, not 4,000.
 */
export class DeliveredText {
  /** Characters (UTF-16 units) delivered so far. */
  chars = 0;
  /** Pieces delivered so far. */
  pieces = 0;
  /** The last piece delivered, `''` before any. */
  lastPiece = '';
  /** Joined blocks first, then the pieces since the last block. */
  private readonly parts: string[] = [];
  private blocks = 0;

  add(piece: string): void {
    this.chars += piece.length;
    this.pieces += 1;
    this.lastPiece = piece;
    const parts = this.parts;
    parts.push(piece);
    if (parts.length - this.blocks < PIECES_PER_BLOCK) return;
    const block = parts.splice(this.blocks).join('');
    parts.push(block);
    this.blocks += 1;
  }

  /** Strings held: the blocks and the pieces since. */
  get held(): number {
    return this.parts.length;
  }

  get text(): string {
    return this.parts.join('');
  }
}
