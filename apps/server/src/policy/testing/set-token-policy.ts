import Database from 'better-sqlite3';
import path from 'node:path';
import { digestKey } from '../../security/keys';
import { SQLITE_FILE_NAME } from '../../storage/sqlite/open-sqlite';

/** The token-policy columns of SPEC §4, as a test sets them. */
export interface TokenPolicyPatch {
  status?: 'active' | 'disabled';
  expiresAt?: string | null;
  models?: string[] | null;
  allowedIps?: string[] | null;
  rateLimit?: { rpm: number | null; tpm: number | null } | null;
}

const json = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

/**
 * Sets a token's policy straight in `<dataDir>/relay.db`, found by its key, through a second
 * connection (WAL lets it write beside the relay's own).
 *
 * Stop-gap until `PATCH /api/tokens/{id}` lands: then the tests should go through the API.
 */
export function setTokenPolicy(dataDir: string, key: string, patch: TokenPolicyPatch): void {
  const columns: [string, unknown][] = [];
  if (patch.status !== undefined) columns.push(['status', patch.status]);
  if (patch.expiresAt !== undefined) columns.push(['expires_at', patch.expiresAt]);
  if (patch.models !== undefined) columns.push(['models', json(patch.models)]);
  if (patch.allowedIps !== undefined) columns.push(['allowed_ips', json(patch.allowedIps)]);
  if (patch.rateLimit !== undefined) columns.push(['rate_limit', json(patch.rateLimit)]);
  if (columns.length === 0) throw new Error('setTokenPolicy: nothing to set');

  const db = new Database(path.join(dataDir, SQLITE_FILE_NAME));
  try {
    db.pragma('busy_timeout = 5000');
    const assignments = columns.map(([column]) => `${column} = ?`).join(', ');
    const values = columns.map(([, value]) => value);
    const { changes } = db.prepare(`UPDATE tokens SET ${assignments} WHERE key_digest = ?`).run(...values, digestKey(key));
    if (changes !== 1) throw new Error(`setTokenPolicy: no token with that key in ${dataDir}`);
  } finally {
    db.close();
  }
}
