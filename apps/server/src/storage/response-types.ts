/** Stored Responses API state (issue 13): the one place the relay keeps prompts and answers. */

/** A response created through `POST /v1/responses`, kept for `previous_response_id` and retrieval. */
export interface StoredResponseRecord {
  /** `resp_…`: the relay's own id when bridged, the upstream's when native. */
  id: string;
  accountId: number;
  tokenId: number | null;
  /** `native`: the channel keeps the response, the relay only where it lives; `bridged`: the relay keeps it. */
  origin: 'native' | 'bridged';
  /** The channel that answered (native: where later calls about this response must go). */
  channelId: number | null;
  /** Native only: sha256 hex of the channel key that created it (never the key itself). */
  keyDigest: string | null;
  /** The model name the caller used. */
  model: string;
  previousResponseId: string | null;
  status: string;
  /** Bridged: the Response object as answered. Null when native. */
  response: Record<string, unknown> | null;
  /** Bridged: this request's input items, each with an `id`. Null when native. */
  inputItems: Record<string, unknown>[] | null;
  createdAt: string;
  expiresAt: string;
}
/**
 * The bound on what one account keeps (RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT,
 * RELAY_RESPONSES_MAX_PER_ACCOUNT), applied by every `put`. Bytes are those of the JSON kept:
 * a bridged response and its input items (storedResponseBytes); a native one counts 0 bytes.
 */
export interface StoredResponseLimits {
  maxBytes: number;
  maxCount: number;
  /** Responses expired at `now` (ISO) count for nothing: they are gone for callers already. */
  now: string;
}
/** What a `put` did. */
export interface StoredResponsePut {
  /** False: the record alone is larger than `maxBytes`, so it is not kept (nor an earlier row of its id). */
  stored: boolean;
  /** The account's older responses removed to make room. */
  evicted: number;
}
/** What an account keeps now: its unexpired responses and their bytes. */
export interface StoredResponseUsage {
  count: number;
  bytes: number;
}
export interface ResponseStore {
  /**
   * Insert, or replace the row with the same id (a background response finishing); then the
   * account's oldest responses (by `createdAt`; the record put counts as the newest) are removed
   * until its unexpired ones are at most `limits.maxCount` holding at most `limits.maxBytes`.
   * Atomic per account: puts of one account running at once leave it within both bounds.
   */
  put(record: StoredResponseRecord, limits: StoredResponseLimits): Promise<StoredResponsePut>;
  /** Each asked account's usage at `now` (zero for one that keeps nothing). */
  usage(accountIds: readonly number[], now: string): Promise<Map<number, StoredResponseUsage>>;
  /** The record when it exists, belongs to `accountId` and has not expired at `now` (ISO). */
  get(id: string, accountId: number, now: string): Promise<StoredResponseRecord | undefined>;
  /** The chain ending at `id` (that record last), oldest first, following previousResponseId, at most `maxDepth` records, only the account's unexpired rows; stops at a missing link. */
  chain(id: string, accountId: number, now: string, maxDepth: number): Promise<StoredResponseRecord[]>;
  /**
   * The items with these ids among the input and output items of the account's `recent` latest
   * unexpired bridged responses (what an `item_reference` without previous_response_id names).
   */
  findItems(accountId: number, itemIds: readonly string[], now: string, recent: number): Promise<Record<string, unknown>[]>;
  delete(id: string, accountId: number): Promise<boolean>;
  /** Deletes rows expired at `now`; returns how many. */
  purgeExpired(now: string): Promise<number>;
}
