/**
 * A vector as OpenAI sends it for `encoding_format: base64`: each number as a little-endian
 * float32, the bytes in base64 (what the OpenAI SDKs decode, and ask for by default).
 */
export function encodeFloat32Base64(values: readonly number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

export interface EmbeddingListArgs {
  /** One vector per input, in the inputs' order. */
  vectors: ReadonlyArray<readonly number[]>;
  publicModel: string;
  encodingFormat: 'float' | 'base64' | undefined;
  /** Prompt tokens as reported (0 when the upstream does not count; the relay then rewrites them). */
  promptTokens: number;
}

/** OpenAI's embeddings answer for vectors from an upstream of another format. */
export function embeddingList({ vectors, publicModel, encodingFormat, promptTokens }: EmbeddingListArgs): Record<string, unknown> {
  return {
    object: 'list',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: encodingFormat === 'base64' ? encodeFloat32Base64(vector) : [...vector],
    })),
    model: publicModel,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}
