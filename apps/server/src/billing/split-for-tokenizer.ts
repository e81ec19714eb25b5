/**
 * Cuts text into pieces for a BPE tokenizer, whose cost grows with the square of its longest
 * pre-token: no piece holds more than `maxRun` units without a pre-token boundary, so counting
 * is linear in the text; pieces stay under about `maxPiece` units to keep calls few.
 *
 * Cuts fall where the o200k pre-tokenizer splits anyway, so the pieces' counts add up to the
 * whole text's count: before a space between two non-spaces (` word` is a pre-token), or
 * between a letter and what cannot extend its word (`好` | `，`, `word` | `.`, `a` | `3`).
 * Only a run of `maxRun` units with neither (a long CJK run, dashes, digits) gets a hard cut,
 * which may shift the count by about a token per cut.
 */
export function* splitForTokenizer(text: string, maxPiece: number, maxRun: number): Generator<string> {
  let start = 0;
  /** Where the current stretch without a boundary began: the last cut seen. */
  let lastCut = 0;
  for (let index = 1; index < text.length; index++) {
    if (isLowSurrogate(text.charCodeAt(index))) continue;
    if (isCleanCut(text, index)) {
      if (index - start > maxPiece && lastCut > start) {
        yield text.slice(start, lastCut);
        start = lastCut;
      }
      lastCut = index;
    } else if (index - lastCut >= maxRun) {
      yield text.slice(start, index);
      start = lastCut = index;
    }
  }
  if (text.length - start > maxPiece && lastCut > start) {
    yield text.slice(start, lastCut);
    start = lastCut;
  }
  if (start < text.length) yield start === 0 ? text : text.slice(start);
}

const LETTER = /\p{L}/uy;
/** What may follow a letter inside its pre-token: more letters, combining marks, `'s`. */
const EXTENDS_WORD = /[\p{L}\p{M}\s']/uy;
const WHITESPACE = /\s/y;

function matchesAt(pattern: RegExp, text: string, index: number): boolean {
  pattern.lastIndex = index;
  return pattern.test(text);
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Whether the o200k pre-tokenizer ends a pre-token right before `index` (0 < index < length). */
function isCleanCut(text: string, index: number): boolean {
  if (text.charCodeAt(index) === 0x20) {
    // ` x`: the previous pre-token ended before the space, the next one starts with it.
    return index + 1 < text.length && !matchesAt(WHITESPACE, text, index - 1) && !matchesAt(WHITESPACE, text, index + 1);
  }
  const previous = isLowSurrogate(text.charCodeAt(index - 1)) ? index - 2 : index - 1;
  return previous >= 0 && matchesAt(LETTER, text, previous) && !matchesAt(EXTENDS_WORD, text, index);
}
