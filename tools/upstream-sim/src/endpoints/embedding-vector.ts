import { createHash } from 'node:crypto';

const wordPattern = /[\p{L}\p{N}]+/gu;

/** The length of a model's vectors, and so the most `dimensions` may ask for. */
const nativeDimensions: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'text-embedding-004': 768,
  'text-embedding-005': 768,
  'embedding-001': 768,
  'gemini-embedding-001': 3072,
};

/** The most dimensions a model the simulator does not know may be asked for. */
export const maxUnknownModelDimensions = 8192;

/** A model's vector length (`models/` prefix ignored); undefined for a model the simulator does not know. */
export function nativeEmbeddingDimensions(model: string): number | undefined {
  return nativeDimensions[model.replace(/^models\//, '')];
}

/** mulberry32: a small, fast, deterministic stream of numbers in [0, 1) from a 32-bit seed. */
function numberStream(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function wordSeed(word: string): number {
  return createHash('sha256').update(word).digest().readUInt32LE(0);
}

/**
 * The simulator's embedding of `text`: a unit vector, the normalised sum of one pseudo-random
 * vector per word (lower-cased; the whole text when it has no word), each drawn from a hash of
 * the word. So the same text always gets the same vector in every format (OpenAI, Gemini), texts
 * sharing words are close (cosine grows with the words in common), word order does not count,
 * and a shorter `dimensions` is the longer vector's start, renormalised — as OpenAI's
 * shortened embeddings are. Every value is a float32, so base64 answers decode to the same numbers.
 */
export function embeddingVector(text: string, dimensions: number): number[] {
  const words = text.toLowerCase().match(wordPattern) ?? [text];
  const sum = new Float64Array(dimensions);
  for (const word of words) {
    const next = numberStream(wordSeed(word));
    for (let index = 0; index < dimensions; index += 1) sum[index] = (sum[index] ?? 0) + next() * 2 - 1;
  }
  const norm = Math.sqrt(sum.reduce((total, value) => total + value * value, 0)) || 1;
  return Array.from(sum, (value) => Math.fround(value / norm));
}

/** `encoding_format: 'base64'`: the vector's little-endian float32 bytes in base64. */
export function embeddingToBase64(values: readonly number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

/** The numbers of a base64 embedding, as OpenAI's SDKs decode it. */
export function embeddingFromBase64(encoded: string): number[] {
  const bytes = Buffer.from(encoded, 'base64');
  return Array.from({ length: Math.floor(bytes.length / 4) }, (_, index) => bytes.readFloatLE(index * 4));
}

/** Cosine similarity of two vectors of the same length (their dot product, for unit vectors). */
export function cosineSimilarity(left: readonly number[], right: readonly number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  left.forEach((value, index) => {
    const other = right[index] ?? 0;
    dot += value * other;
    leftNorm += value * value;
    rightNorm += other * other;
  });
  return dot / (Math.sqrt(leftNorm * rightNorm) || 1);
}
