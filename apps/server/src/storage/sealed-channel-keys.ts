import { SecretKeyError, SecretKeyring } from '../security/secret-keyring';
import type { ChannelKeysRewrite, ChannelRecord, ChannelStore, StoredChannelStore } from './types';

/**
 * The channel store the server uses over a backend's table, with every key sealed at rest
 * (issue 26): sealed as it is written, opened as it is read. The hot path never pays for it:
 * routing reads channels from the registry, which loads them once per change. A key an earlier
 * version stored in the clear reads as it is, until start-up seals it (`resealKeys`).
 */
export function sealedChannelKeys(stored: StoredChannelStore, keyring: SecretKeyring): ChannelStore {
  /** The plain key; one in the clear passes. Names the channel when it does not open, never the key. */
  const openKey = (value: string, channelId: number): string => {
    if (!SecretKeyring.isSealed(value)) return value;
    try {
      return keyring.open(value);
    } catch (error) {
      if (error instanceof SecretKeyError) throw new SecretKeyError(`channel ${channelId}: a key ${error.message}`);
      throw error;
    }
  };
  const opened = (record: ChannelRecord): ChannelRecord => ({ ...record, keys: record.keys.map((value) => openKey(value, record.id)) });
  const openedIfAny = (record: ChannelRecord | undefined) => (record ? opened(record) : undefined);
  const sealed = (keys: readonly string[]) => keys.map((key) => keyring.seal(key));

  return {
    create: async (input) => opened(await stored.create({ ...input, keys: sealed(input.keys) })),
    get: async (id) => openedIfAny(await stored.get(id)),
    list: async (request) => {
      const page = await stored.list(request);
      return { ...page, rows: page.rows.map(opened) };
    },
    listAll: async () => (await stored.listAll()).map(opened),
    update: async (id, patch) => openedIfAny(await stored.update(id, patch.keys ? { ...patch, keys: sealed(patch.keys) } : patch)),
    delete: (id) => stored.delete(id),
    count: () => stored.count(),
    // The table compares keys by their stored value: find which stored value opens to `key`.
    disableKey: async (id, key, reason) => {
      const current = await stored.get(id);
      const held = current?.keys.find((value) => openKey(value, id) === key);
      return held === undefined ? undefined : openedIfAny(await stored.disableKey(id, held, reason));
    },
    setResponsesApi: async (id, value) => openedIfAny(await stored.setResponsesApi(id, value)),
    setSyncedModels: async (id, models, at) => openedIfAny(await stored.setSyncedModels(id, models, at)),
    resealKeys: async () => {
      const rewrites: ChannelKeysRewrite[] = [];
      for (const record of await stored.listAll()) {
        if (!record.keys.some((value) => keyring.needsSealing(value))) continue;
        const next = record.keys.map((value) => (keyring.needsSealing(value) ? keyring.seal(openKey(value, record.id)) : value));
        rewrites.push({ id: record.id, expected: record.keys, next });
      }
      return stored.rewriteKeys(rewrites);
    },
  };
}
