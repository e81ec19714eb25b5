import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { digestKey, generateAdminKey } from '../security/keys';
import { DEFAULT_CHANNEL_TIMEOUTS } from '../relay/channel-defaults';
import type { Storage } from './types';

export const ADMIN_KEY_FILE = 'admin.key';

/**
 * First start (SPEC §3): create the admin account — its key from RELAY_ADMIN_KEY, otherwise
 * random and written to `<data dir>/admin.key` (0600) — and channels from the environment.
 * The key itself is never logged.
 */
export async function bootstrapStorage(storage: Storage, config: Config, logger: Logger): Promise<void> {
  await releaseLeftoverReservations(storage, logger);
  const admin = await storage.accounts.findAdmin();
  if (admin && config.adminKey) {
    // RELAY_ADMIN_KEY set on a later start replaces the admin key: the operator's word wins.
    await storage.accounts.setKeyDigest(admin.id, digestKey(config.adminKey));
  } else if (!admin && config.adminKey) {
    await storage.accounts.createAdmin(digestKey(config.adminKey));
    logger.info('admin account created with the key from RELAY_ADMIN_KEY');
  } else if (!admin) {
    const key = generateAdminKey();
    const keyFile = path.join(config.dataDir, ADMIN_KEY_FILE);
    fs.writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    fs.chmodSync(keyFile, 0o600);
    await storage.accounts.createAdmin(digestKey(key));
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
 * One relay owns its database, so every reservation still recorded at start was left by a
 * process that died before settling it (kill -9, power loss): give it all back. (Several
 * instances sharing a database would release only reservations older than the longest request.)
 */
export async function releaseLeftoverReservations(storage: Storage, logger: Logger): Promise<void> {
  const released = await storage.quota.releaseReservations(new Date(Date.now() + 1).toISOString());
  if (released.count > 0) {
    logger.warn({ reservations: released.count, microUsd: released.amount }, 'gave back quota reserved by requests a previous process never settled');
  }
}
