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
