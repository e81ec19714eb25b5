import { occursOnce } from './edit-chunk-text';

/** Whether a JSON string literal's inside has nothing to unescape: no quote, backslash or control character. */
function isPlainInside(literal: string): boolean {
  for (let at = literal.length - 2; at > 0; at--) {
    const code = literal.charCodeAt(at);
    if (code === 0x22 || code === 0x5c || code < 0x20) return false;
  }
  return true;
}

/**
 * `part` without the text it was cut from. A slice of 13 characters or more is, in V8, a view that
 * keeps the whole text it was cut from alive — here the upstream's piece of the stream, events and
 * all — for as long as the frame lives, which is the stream's life (issue 30: ~1.1 KB of every open
 * stream). Joined to one character, it is copied once into a flat string of its own; the cut that
 * takes the character off again is a view of that copy only.
 */
function ownCopy(part: string): string {
  return ` ${part}`.slice(1);
}

const OBFUSCATION = ',"obfuscation":"';
const CONTENT_KEY = '"content":';
const DELTA_KEY = '"delta":';

/** What a frame is cut around: a key and its compact value, found once together, and what replaces the value's ends. */
interface Cut {
  key: string;
  value: string;
  /** Written before the text's JSON string (after the key). */
  opens: string;
  /** Written after it. */
  closes: string;
}

/**
 * Where a chunk's last field starts when it is OpenAI's `obfuscation` (random padding, different
 * in every chunk) of plain characters; -1 when the chunk does not end with one.
 */
function paddingAt(text: string): number {
  if (text.charCodeAt(text.length - 1) !== 0x7d || text.charCodeAt(text.length - 2) !== 0x22) return -1;
  const at = text.lastIndexOf(OBFUSCATION);
  // From its opening quote to its closing one: nothing in between that ends or escapes a string.
  return at !== -1 && isPlainInside(text.slice(at + OBFUSCATION.length - 1, text.length - 1)) ? at : -1;
}

/**
 * The frame around the text of one stream's content chunks. An upstream sends every text chunk
 * of an answer as the same JSON with only `choices[0].delta.content` changing — same id, model,
 * created, index, `finish_reason: null`, `usage: null`. Once one such chunk was parsed and checked
 * in full, a later chunk that is exactly that frame around a valid JSON string is the same chunk
 * with other text: its facts (no finish, no usage, no error, one choice, nothing else delivered)
 * are the frame's, its text is the string, and the caller's edited chunk is the edited frame
 * around the same string — no JSON.parse of the chunk, no edit. OpenAI's `obfuscation` padding,
 * the one field that changes in every chunk, is set apart when it is the last field and carried
 * over as sent. Anything else (the first chunk, a role or tool call, the finish, the usage, a
 * frame that changes otherwise) takes the full path, which learns the frame again where it can.
 */
export class ContentChunkFrame {
  private constructor(
    private readonly prefix: string,
    private readonly suffix: string,
    private readonly editedPrefix: string,
    private readonly editedSuffix: string,
    /** Whether the frame's chunks end with an `obfuscation` field: the frame stops before it, the field is carried over. */
    private readonly padded: boolean,
  ) {}

  /**
   * The frame of `text`, a chunk parsed and checked in full whose only delivered text is the
   * delta's `content`; `edited` is what the caller got for it. Undefined when the upstream's
   * encoding of the string is not JSON.stringify's or the `content` key is not found exactly once
   * in both texts: the frame is then not provably the delta's.
   */
  static learn(text: string, edited: string, content: string): ContentChunkFrame | undefined {
    return ContentChunkFrame.around(text, edited, { key: CONTENT_KEY, value: JSON.stringify(content), opens: '', closes: '' });
  }

  /**
   * The frame of the text chunks to come, learned from the chunk before them: `text`, parsed and
   * checked in full, has one choice, no finish, usage, error or delivered text, and `delta` is
   * that choice's delta (OpenAI's first chunk: `{"role":"assistant","content":"","refusal":null}`).
   * A text chunk is the same chunk with the delta `{"content":…}` in its place: the frame is
   * `text` with the delta's object cut out, opened with `{"content":` and closed with `}`. A chunk
   * that fits it differs from `text` in the delta alone, so what was checked of the rest holds;
   * its delta is only the string. Undefined, as for `learn`, unless the compact `"delta":{…}`
   * occurs exactly once in both texts.
   */
  static learnAfter(text: string, edited: string, delta: Record<string, unknown>): ContentChunkFrame | undefined {
    return ContentChunkFrame.around(text, edited, { key: DELTA_KEY, value: JSON.stringify(delta), opens: `{${CONTENT_KEY}`, closes: '}' });
  }

  private static around(text: string, edited: string, cut: Cut): ContentChunkFrame | undefined {
    const at = paddingAt(text);
    if (at === -1) return ContentChunkFrame.framed(text, edited, cut, false);
    // The edits never touch the padding: the caller's chunk ends with the same field. The frame
    // is what comes before it (no closing brace: the padding's field brings it).
    const editedAt = paddingAt(edited);
    if (editedAt === -1 || edited.slice(editedAt) !== text.slice(at)) return undefined;
    return ContentChunkFrame.framed(text.slice(0, at), edited.slice(0, editedAt), cut, true);
  }

  private static framed(text: string, edited: string, cut: Cut, padded: boolean): ContentChunkFrame | undefined {
    const { key, opens, closes } = cut;
    const pattern = key + cut.value;
    const at = occursOnce(text, pattern);
    const editedAt = edited === text ? at : occursOnce(edited, pattern);
    if (at === -1 || editedAt === -1) return undefined;
    const prefix = ownCopy(text.slice(0, at + key.length) + opens);
    const suffix = ownCopy(closes + text.slice(at + pattern.length));
    // Nothing edited (the caller's model is the upstream's, usage kept): the caller's frame is the same strings.
    if (edited === text) return new ContentChunkFrame(prefix, suffix, prefix, suffix, padded);
    const editedPrefix = ownCopy(edited.slice(0, editedAt + key.length) + opens);
    return new ContentChunkFrame(prefix, suffix, editedPrefix, ownCopy(closes + edited.slice(editedAt + pattern.length)), padded);
  }

  /** The caller's chunk and its text when `text` is this frame around one JSON string; undefined otherwise. */
  match(text: string): { edited: string; content: string } | undefined {
    const { prefix, suffix } = this;
    // Read in place (no string built until the answer): the frame ends where the padding starts.
    const padding = this.padded ? paddingAt(text) : text.length;
    if (padding === -1) return undefined;
    const end = padding - suffix.length;
    // Compared as slices: String.prototype.startsWith took as long as JSON.parse of the chunk (Node 20).
    if (end - prefix.length < 2 || text.slice(0, prefix.length) !== prefix || text.slice(end, padding) !== suffix) return undefined;
    const literal = text.slice(prefix.length, end);
    if (literal.charCodeAt(0) !== 0x22 || literal.charCodeAt(literal.length - 1) !== 0x22) return undefined;
    let content: unknown;
    if (isPlainInside(literal)) content = literal.slice(1, -1);
    else {
      // Escapes (or a stray quote): JSON.parse of the string alone says whether it is one string.
      try {
        content = JSON.parse(literal);
      } catch {
        return undefined;
      }
    }
    if (typeof content !== 'string') return undefined;
    const edited = this.editedPrefix + literal + this.editedSuffix;
    return { edited: this.padded ? edited + text.slice(padding) : edited, content };
  }
}
