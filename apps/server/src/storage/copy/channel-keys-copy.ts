import { SecretKeyError, SecretKeyring } from '../../security/secret-keyring';
import { CopyRefusedError, type SqliteValue, type SqliteSource } from './sqlite-source';

/** What the copy does to `channels.keys`: each key as the target's instances will read it. */
export interface ChannelKeysCopy {
  /** The column's value to write: keys sealed with the current secret kept as they are, the others sealed with it. */
  rewrite(value: SqliteValue): SqliteValue;
  /** How many keys `rewrite` sealed (stored in the clear, or under RELAY_SECRET_KEY_PREVIOUS). */
  readonly sealed: number;
}

const keysOf = (value: SqliteValue, channelId: SqliteValue): string[] => {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : undefined;
  if (!Array.isArray(parsed) || !parsed.every((key): key is string => typeof key === 'string')) {
    throw new CopyRefusedError(`channel ${String(channelId)}: its keys are not a list of strings`);
  }
  return parsed;
};

/**
 * Channel keys are sealed at rest with the relay's secret (issue 26), which the database does not
 * hold: before anything is copied, every key must open with the secret the copy was given — the
 * one the PostgreSQL instances will be started with — or the copy is refused, naming the channel.
 */
export function checkChannelKeys(source: SqliteSource, keyring: SecretKeyring): ChannelKeysCopy {
  for (const [id, value] of source.rows('channels', ['id', 'keys'])) {
    for (const key of keysOf(value ?? null, id ?? null)) {
      if (!SecretKeyring.isSealed(key)) continue;
      try {
        keyring.open(key);
      } catch (error) {
        if (!(error instanceof SecretKeyError)) throw error;
        throw new CopyRefusedError(
          `channel ${String(id)}: a key ${error.message}. Give the copy the relay's secret: --secret-key-file (by default secret.key beside the database) or RELAY_SECRET_KEY`,
        );
      }
    }
  }
  let sealed = 0;
  return {
    rewrite: (value) => {
      const keys = keysOf(value, null);
      if (!keys.some((key) => keyring.needsSealing(key))) return value;
      return JSON.stringify(
        keys.map((key) => {
          if (!keyring.needsSealing(key)) return key;
          sealed += 1;
          return keyring.seal(SecretKeyring.isSealed(key) ? keyring.open(key) : key);
        }),
      );
    },
    get sealed() {
      return sealed;
    },
  };
}
