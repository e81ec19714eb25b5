import type { UpstreamObjectRecord } from '../types';

/** The columns of an `upstream_objects` row (written, never read back whole), in `upstreamObjectColumns`' order. */
export const UPSTREAM_OBJECT_COLUMNS = 'kind, id, account_id, channel_id, created_at, expires_at';

/** An object's row as written, by column (SQLite binds by name, PostgreSQL by position). */
export const upstreamObjectColumns = (object: UpstreamObjectRecord) => ({
  kind: object.kind,
  id: object.id,
  account_id: object.accountId,
  channel_id: object.channelId,
  created_at: object.createdAt,
  expires_at: object.expiresAt,
});
