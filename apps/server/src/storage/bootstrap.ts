import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { digestKey, generateAdminKey } from '../security/keys';
import { DEFAULT_CHANNEL_TIMEOUTS } from '../core/channel-defaults';
import { INSTANCE_STALE_MS } from './instance-liveness';
import type { ReleasedReservations, Storage } from './types';

export const ADMIN_KEY_FILE = 'admin.key';

/**
 * First start (SPEC §3): create the admin account — its key from RELAY_ADMIN_KEY, otherwise
 * random and written to `<data dir>/admin.key` (0600) — and channels from the environment.
 * The key itself is never logged.
 */
export async function bootstrapStorage(storage: Storage, config: Config, logger: Logger): Promise<void> {
  await releaseLeftoverReservations(storage, logger);
  // Instances starting together on a new shared database: one creates the admin and the channels,
  // the others find them (each checking first would create them twice, or fail on the unique key).
  await storage.exclusive('bootstrap', () => createFirstRecords(storage, config, logger));
}

async function createFirstRecords(storage: Storage, config: Config, logger: Logger): Promise<void> {
  // Keys an earlier version kept in the clear, or under RELAY_SECRET_KEY_PREVIOUS, sealed anew;
  // a key this instance cannot open stops the start rather than serving without it.
  const resealed = await storage.channels.resealKeys();
  if (resealed > 0) logger.info({ channels: resealed }, 'channel keys sealed with the current secret key');
  const webhookSecrets = await storage.webhooks.resealSecrets();
  if (webhookSecrets > 0) logger.info({ webhooks: webhookSecrets }, 'webhook secrets sealed with the current secret key');
  const admin = await storage.accounts.findAdmin();
  if (config.adminKey) {
    // RELAY_ADMIN_KEY replaces the admin key at every start: the operator's word wins. Stored as a
    // salted scrypt hash, which also upgrades an earlier version's SHA-256 digest.
    await storage.accounts.setAdminKey(digestKey(config.adminKey));
    if (!admin) logger.info('admin account created with the key from RELAY_ADMIN_KEY');
  } else if (!admin) {
    const key = generateAdminKey();
    const keyFile = path.join(config.dataDir, ADMIN_KEY_FILE);
    fs.writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    fs.chmodSync(keyFile, 0o600);
    await storage.accounts.setAdminKey(digestKey(key));
    logger.info({ keyFile }, `admin account created; its key is in ${keyFile}`);
  }

  if (config.envChannels.length > 0 && (await storage.channels.count()) === 0) {
    for (const channel of config.envChannels) {
      await storage.channels.create({
        name: `${channel.type} (from environment)`,
        type: channel.type,
        baseUrl: channel.baseUrl,
        keys: [channel.apiKey],
        models: channel.models,
        modelMapping: {},
        priority: 0,
        weight: 1,
        enabled: true,
        timeouts: DEFAULT_CHANNEL_TIMEOUTS,
      });
      logger.info({ type: channel.type, baseUrl: channel.baseUrl }, 'channel created from the environment');
    }
  }
}

/**
 * What a process that died before settling its reservations (kill -9, power loss) left taken is
 * given back at start. SQLite: one relay owns the database, so every reservation still recorded
 * is such a leftover. PostgreSQL: other instances may be running and holding reservations of
 * their own; this one marks itself alive first, then gives back only those of instances silent
 * for INSTANCE_STALE_MS (or unknown) — a live instance's reservations are never touched.
 */
export async function releaseLeftoverReservations(storage: Storage, logger: Logger, now: number = Date.now()): Promise<void> {
  let released: ReleasedReservations;
  if (storage.kind === 'sqlite') {
    released = await storage.quota.releaseReservations(new Date(now + 1).toISOString());
  } else {
    await storage.quota.heartbeat(new Date(now).toISOString());
    released = await storage.quota.releaseOrphaned(new Date(now - INSTANCE_STALE_MS).toISOString());
  }
  if (released.count > 0) {
    logger.warn({ reservations: released.count, microUsd: released.amount }, 'gave back quota reserved by requests a previous process never settled');
  }
}
