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
export interface ResponseStore {
  /** Insert, or replace the row with the same id (a background response finishing). */
  put(record: StoredResponseRecord): Promise<void>;
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
