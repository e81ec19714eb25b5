import type { StoredResponseRecord } from '../types';
import { jsonColumnBytes } from '../stored-response-size';
import { jsonColumn, type JsonColumn, type RowCodec } from './codec';

/** A `stored_responses` row as both backends read it (`size_bytes` is only summed, in SQL). */
export interface StoredResponseRow {
  id: string;
  account_id: number;
  token_id: number | null;
  origin: StoredResponseRecord['origin'];
  channel_id: number | null;
  key_digest: string | null;
  model: string;
  previous_response_id: string | null;
  status: string;
  response: JsonColumn<Record<string, unknown>> | null;
  input_items: JsonColumn<Record<string, unknown>[]> | null;
  created_at: string;
  expires_at: string;
}

const COLUMN_NAMES = [
  'id',
  'account_id',
  'token_id',
  'origin',
  'channel_id',
  'key_digest',
  'model',
  'previous_response_id',
  'status',
  'response',
  'input_items',
  'created_at',
  'expires_at',
];
export const STORED_RESPONSE_COLUMNS = COLUMN_NAMES.join(', ');
/** The columns of a query reading `stored_responses` as `alias`. */
export const storedResponseColumnsOf = (alias: string): string => COLUMN_NAMES.map((column) => `${alias}.${column}`).join(', ');

export const storedResponseRecordOf = (row: StoredResponseRow, codec: RowCodec): StoredResponseRecord => ({
  id: row.id,
  accountId: row.account_id,
  tokenId: row.token_id,
  origin: row.origin,
  channelId: row.channel_id,
  keyDigest: row.key_digest,
  model: row.model,
  previousResponseId: row.previous_response_id,
  status: row.status,
  response: codec.json(row.response),
  inputItems: codec.json(row.input_items),
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/**
 * A record's row as written: STORED_RESPONSE_COLUMNS in order (JSON as text), then `size_bytes`,
 * what its JSON takes — the same count on both backends, which the per-account bounds sum.
 */
export function storedResponseColumns(record: StoredResponseRecord) {
  const response = jsonColumn(record.response);
  const inputItems = jsonColumn(record.inputItems);
  return {
    id: record.id,
    account_id: record.accountId,
    token_id: record.tokenId,
    origin: record.origin,
    channel_id: record.channelId,
    key_digest: record.keyDigest,
    model: record.model,
    previous_response_id: record.previousResponseId,
    status: record.status,
    response,
    input_items: inputItems,
    created_at: record.createdAt,
    expires_at: record.expiresAt,
    size_bytes: jsonColumnBytes(response) + jsonColumnBytes(inputItems),
  };
}
