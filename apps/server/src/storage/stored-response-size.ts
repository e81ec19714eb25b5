import type { StoredResponseRecord } from './response-types';

/** Bytes of `value` as a JSON column holds it (UTF-8); 0 for SQL NULL. */
export const jsonColumnBytes = (json: string | null): number => (json === null ? 0 : Buffer.byteLength(json, 'utf8'));

/**
 * What a stored response counts against its account's byte bound: the JSON of the Response and
 * of its input items, as written (a native response keeps neither: 0).
 */
export const storedResponseBytes = (record: Pick<StoredResponseRecord, 'response' | 'inputItems'>): number =>
  jsonColumnBytes(record.response === null ? null : JSON.stringify(record.response)) +
  jsonColumnBytes(record.inputItems === null ? null : JSON.stringify(record.inputItems));
