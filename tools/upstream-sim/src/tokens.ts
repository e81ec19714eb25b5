const streamTokenPattern = /\s*\S+/g;
/** One code point's class, for those past ASCII: a letter or number (a word's), or whitespace. */
const wordCodePoint = /^[\p{L}\p{N}]$/u;
const spaceCodePoint = /^\s$/u;

const SPACE = 0;
const WORD = 1;
const MARK = 2;

/** A code point past ASCII's class, by the pattern's own Unicode classes. */
function classify(codePoint: number): number {
  const char = String.fromCodePoint(codePoint);
  return wordCodePoint.test(char) ? WORD : spaceCodePoint.test(char) ? SPACE : MARK;
}

/** Word tokens that keep their leading spaces (`"Hello"`, `" world"`): joined they give the text back. */
export function splitIntoStreamTokens(text: string): string[] {
  return text.match(streamTokenPattern) ?? [];
}

/**
 * A stable stand-in for a tokenizer: words and punctuation marks — the matches of
 * `/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu`, counted in one pass without making them: every run of
 * letters and numbers is one token, every other code point that is not whitespace is one (past
 * ASCII, classed by the same Unicode classes). The regular expression's `match` made a string of
 * each, ~13,000 for a 64 KiB prompt: 38 % of the simulator's time in the benchmark's 64 KiB rows
 * (issue 30).
 */
export function countTokens(text: string): number {
  let count = 0;
  let inWord = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    let kind: number;
    if (code < 0x80) {
      const lower = code | 0x20;
      if ((code >= 0x30 && code <= 0x39) || (lower >= 0x61 && lower <= 0x7a)) kind = WORD;
      else kind = code === 0x20 || (code >= 0x09 && code <= 0x0d) ? SPACE : MARK;
    } else {
      const codePoint = text.codePointAt(at) as number;
      // A pair of surrogates is one code point (the `u` flag's reading); a lone one is a code point of its own.
      if (codePoint > 0xffff) at += 1;
      kind = classify(codePoint);
    }
    if (kind === WORD) {
      if (!inWord) count += 1;
      inWord = true;
    } else {
      inWord = false;
      if (kind === MARK) count += 1;
    }
  }
  return count;
}

/** `text` cut into pieces of `size` characters (the last may be shorter); [] for ''. */
export function splitIntoPieces(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}
