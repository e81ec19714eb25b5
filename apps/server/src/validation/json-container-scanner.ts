import { MAX_JSON_DEPTH } from './json-depth';

/** Where one direct child of the scanned container lies (absolute byte offsets, end exclusive). */
export interface JsonChild {
  /** An object member's key with its quotes; -1 for array elements. */
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  /**
   * Several neighbouring children at once (see `groupBytes`): from the first one's key (or value)
   * to the last one's value — the members or elements of a container, without its brackets.
   */
  group?: true;
}

/** How a scanner reports the children of its container. */
export interface ScanOptions {
  /** Levels of nesting above the container (0: it is the whole text). */
  depth?: number;
  /** Neighbours smaller than `splitBytes` are reported together, about this many bytes a group; 0: one by one. */
  groupBytes?: number;
  /** A child container larger than this is reported on its own (to be split again). */
  splitBytes?: number;
  maxDepth?: number;
}

/** Why the text is not JSON, found without parsing it; JSON.parse of the pieces has the last word. */
export type ScanFailure = { kind: 'syntax'; at: number } | { kind: 'too_deep'; at: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
/** What may start a number, `true`, `false` or `null`. */
const startsScalar = (byte: number): boolean => byte === 0x2d || (byte >= 0x30 && byte <= 0x39) || byte === 0x74 || byte === 0x66 || byte === 0x6e;

/** Where the scan is in the container's own grammar (inside a child value it only follows nesting). */
const enum Expect {
  Open,
  KeyOrClose,
  Key,
  Colon,
  ValueOrClose,
  Value,
  CommaOrClose,
  Done,
}

/** What the scan is inside of. */
const enum Inside {
  Structure,
  KeyString,
  ValueString,
  NestedString,
  Scalar,
}

/**
 * Splits one JSON object or array into its direct children as its bytes arrive, piece by piece,
 * without parsing them: the container's own grammar (braces, colons, commas) is checked exactly;
 * inside a child only strings and nesting are followed, so each child's bytes can later be given
 * to JSON.parse on their own — which checks them — and put together into the same value JSON.parse
 * makes of the whole. Also finds nesting deeper than `maxDepth` (json-depth.ts) wherever it is.
 * Strings are skipped with the native `indexOf`: the cost goes with the structure, not the text.
 */
export class JsonContainerScanner {
  readonly children: JsonChild[] = [];
  failure: ScanFailure | undefined;
  /** The text is a string, number or literal, not a container: nothing to split (JSON.parse takes it whole). */
  notContainer = false;
  /** Which bracket opened the container: `{` or `[`; 0 until seen. */
  opener = 0;
  private expect = Expect.Open;
  private inside = Inside.Structure;
  /** Nesting below the container's own level, inside the current child value. */
  private nested = 0;
  private keyStart = -1;
  private keyEnd = -1;
  private valueStart = -1;
  /** Absolute offset of the next byte fed. */
  private offset: number;

  private readonly depth: number;
  private readonly groupBytes: number;
  private readonly splitBytes: number;
  private readonly maxDepth: number;
  /** The group being gathered: from its first child's start to its last one's end. */
  private groupStart = -1;
  private groupEnd = -1;
  private valueIsContainer = false;

  /** `start`: the absolute offset of the first byte fed. */
  constructor(start = 0, options: ScanOptions = {}) {
    this.offset = start;
    this.depth = options.depth ?? 0;
    this.groupBytes = options.groupBytes ?? 0;
    this.splitBytes = options.splitBytes ?? Number.POSITIVE_INFINITY;
    this.maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  }

  get done(): boolean {
    return this.expect === Expect.Done;
  }

  /** Scans `bytes` (the next bytes of the text). Stops at the first failure. */
  feed(piece: Buffer, from = 0, to = piece.length): void {
    // A view ending at `to`, so that no search runs past what this call scans.
    const bytes = to === piece.length ? piece : piece.subarray(0, to);
    const base = this.offset - from;
    let i = from;
    while (i < to && !this.failure) {
      switch (this.inside) {
        case Inside.KeyString:
        case Inside.ValueString:
        case Inside.NestedString:
          i = this.skipString(bytes, i, to, base);
          break;
        case Inside.Scalar:
          i = this.skipScalar(bytes, i, to, base);
          break;
        default:
          i = this.structure(bytes, i, base) + 1;
      }
    }
    this.offset = base + to;
  }

  /** After the last byte: a failure unless the container closed (and only whitespace followed). */
  finish(): ScanFailure | undefined {
    if (!this.failure && (this.expect !== Expect.Done || this.inside !== Inside.Structure)) this.failure = { kind: 'syntax', at: this.offset };
    return this.failure;
  }

  /** One byte outside strings and scalars; returns its index. */
  private structure(bytes: Buffer, i: number, base: number): number {
    const byte = bytes[i] as number;
    if (isSpace(byte)) return i;
    const at = base + i;
    if (this.nested > 0) return this.insideChild(byte, at, i);
    switch (this.expect) {
      case Expect.Open:
        if (byte !== OPEN_BRACE && byte !== OPEN_BRACKET) {
          this.notContainer = true;
          return this.fail('syntax', at, i);
        }
        this.opener = byte;
        if (this.depth + 1 > this.maxDepth) return this.fail('too_deep', at, i);
        this.expect = byte === OPEN_BRACE ? Expect.KeyOrClose : Expect.ValueOrClose;
        return i;
      case Expect.KeyOrClose:
      case Expect.Key:
        if (byte === CLOSE_BRACE && this.expect === Expect.KeyOrClose) return this.close(i);
        if (byte !== QUOTE) return this.fail('syntax', at, i);
        this.keyStart = at;
        this.carried = 0;
        this.inside = Inside.KeyString;
        return i;
      case Expect.Colon:
        if (byte !== COLON) return this.fail('syntax', at, i);
        this.expect = Expect.Value;
        return i;
      case Expect.ValueOrClose:
      case Expect.Value:
        if (byte === CLOSE_BRACKET && this.expect === Expect.ValueOrClose) return this.close(i);
        return this.startValue(byte, at, i);
      case Expect.CommaOrClose:
        if (byte === COMMA) {
          this.expect = this.opener === OPEN_BRACE ? Expect.Key : Expect.Value;
          return i;
        }
        if (byte === (this.opener === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)) return this.close(i);
        return this.fail('syntax', at, i);
      case Expect.Done:
        return this.fail('syntax', at, i);
    }
  }

  private startValue(byte: number, at: number, i: number): number {
    this.valueStart = at;
    this.valueIsContainer = byte === OPEN_BRACE || byte === OPEN_BRACKET;
    if (this.opener === OPEN_BRACKET) this.keyStart = this.keyEnd = -1;
    if (byte === QUOTE) {
      this.carried = 0;
      this.inside = Inside.ValueString;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      this.nested = 1;
      if (this.depth + 2 > this.maxDepth) return this.fail('too_deep', at, i);
    } else if (startsScalar(byte)) {
      this.inside = Inside.Scalar;
    } else {
      return this.fail('syntax', at, i);
    }
    return i;
  }

  /** Inside a child container: only nesting and strings matter (JSON.parse checks the rest). */
  private insideChild(byte: number, at: number, i: number): number {
    if (byte === QUOTE) {
      this.carried = 0;
      this.inside = Inside.NestedString;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      this.nested += 1;
      if (this.depth + 1 + this.nested > this.maxDepth) return this.fail('too_deep', at, i);
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      this.nested -= 1;
      if (this.nested === 0) this.endValue(at + 1);
    }
    return i;
  }

  /**
   * From inside a string: past its closing quote, or to `to` when it goes on in the next piece.
   * A quote closes it unless an odd run of backslashes stands before it — a run that may have
   * begun in the previous piece (`carried`).
   */
  private skipString(bytes: Buffer, i: number, to: number, base: number): number {
    for (let at = i; ; ) {
      const quote = bytes.indexOf(QUOTE, at);
      if (quote === -1 || quote >= to) {
        this.carryBackslashes(bytes, i, to);
        return to;
      }
      let backslashes = 0;
      while (quote - 1 - backslashes >= i && bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
      if (quote - backslashes === i) backslashes += this.carried;
      if (backslashes % 2 === 0) {
        this.carried = 0;
        this.endString(base + quote);
        return quote + 1;
      }
      at = quote + 1;
    }
  }

  /** Backslashes ending the piece, still open in the string: they may escape the next piece's first byte. */
  private carryBackslashes(bytes: Buffer, i: number, to: number): void {
    let run = 0;
    while (to - 1 - run >= i && bytes[to - 1 - run] === BACKSLASH) run++;
    this.carried = run === to - i ? this.carried + run : run;
  }

  private carried = 0;

  private endString(closingAt: number): void {
    const inside = this.inside;
    this.inside = Inside.Structure;
    if (inside === Inside.KeyString) {
      this.keyEnd = closingAt + 1;
      this.expect = Expect.Colon;
    } else if (inside === Inside.ValueString) {
      this.endValue(closingAt + 1);
    }
  }

  /** A number or literal ends at the first byte that cannot be in one. */
  private skipScalar(bytes: Buffer, i: number, to: number, base: number): number {
    for (let at = i; at < to; at++) {
      const byte = bytes[at] as number;
      if (byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || isSpace(byte)) {
        this.inside = Inside.Structure;
        this.endValue(base + at);
        return at;
      }
    }
    return to;
  }

  private endValue(end: number): void {
    this.expect = Expect.CommaOrClose;
    const child: JsonChild = { keyStart: this.keyStart, keyEnd: this.keyEnd, valueStart: this.valueStart, valueEnd: end };
    if (this.groupBytes === 0) {
      this.children.push(child);
    } else if (this.valueIsContainer && end - this.valueStart > this.splitBytes) {
      this.flushGroup();
      this.children.push(child);
    } else {
      if (this.groupStart < 0) this.groupStart = this.keyStart >= 0 ? this.keyStart : this.valueStart;
      this.groupEnd = end;
      if (this.groupEnd - this.groupStart >= this.groupBytes) this.flushGroup();
    }
  }

  private flushGroup(): void {
    if (this.groupStart < 0) return;
    this.children.push({ keyStart: -1, keyEnd: -1, valueStart: this.groupStart, valueEnd: this.groupEnd, group: true });
    this.groupStart = this.groupEnd = -1;
  }

  private close(i: number): number {
    this.flushGroup();
    this.expect = Expect.Done;
    return i;
  }

  private fail(kind: ScanFailure['kind'], at: number, i: number): number {
    this.failure = { kind, at };
    return i;
  }
}
