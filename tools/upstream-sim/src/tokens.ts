const streamTokenPattern = /\s*\S+/g;
const countTokenPattern = /[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu;

/** Word tokens that keep their leading spaces (`"Hello"`, `" world"`): joined they give the text back. */
export function splitIntoStreamTokens(text: string): string[] {
  return text.match(streamTokenPattern) ?? [];
}

/** A stable stand-in for a tokenizer: words and punctuation marks. */
export function countTokens(text: string): number {
  return text.match(countTokenPattern)?.length ?? 0;
}

/** `text` cut into pieces of `size` characters (the last may be shorter); [] for ''. */
export function splitIntoPieces(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}
