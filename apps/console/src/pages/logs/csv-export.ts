/** Saving the client's streamed CSV export (`RelayClient.exportLogsCsv`) as a browser download. */

const abortError = (): DOMException => new DOMException('The export was cancelled', 'AbortError');

export const isAbort = (error: unknown): boolean => error instanceof Error && error.name === 'AbortError';

/**
 * The streamed CSV as one Blob, reporting the bytes read so far; stops at the next chunk once
 * `signal` aborts (the client's own abort closes the connection).
 */
export async function collectCsv(chunks: AsyncIterable<Uint8Array>, onBytes: (bytes: number) => void, signal?: AbortSignal): Promise<Blob> {
  const parts: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of chunks) {
    if (signal?.aborted) throw abortError();
    parts.push(chunk);
    bytes += chunk.byteLength;
    onBytes(bytes);
  }
  if (signal?.aborted) throw abortError();
  // Chunks of a fetch body sit on plain ArrayBuffers; TypeScript's Uint8Array type also allows shared ones.
  return new Blob(parts as BlobPart[], { type: 'text/csv' });
}

/** Hands a Blob to the browser as a download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has started the download, not before.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

