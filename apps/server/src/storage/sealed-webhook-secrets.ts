import { SecretKeyring } from '../security/secret-keyring';
import type { StoredWebhookStore, WebhookRecord, WebhookStore } from './webhook-types';

/**
 * The webhook store the server uses, with each signing secret sealed at rest as channel keys are
 * (sealed-channel-keys.ts): sealed as it is written, opened as it is read. A secret that does not
 * open (the relay's secret key changed) reads as '' and is named in the worker's log, never shown.
 */
export function sealedWebhookSecrets(stored: StoredWebhookStore, keyring: SecretKeyring): WebhookStore {
  const opened = (record: WebhookRecord): WebhookRecord => {
    if (!SecretKeyring.isSealed(record.secret)) return record;
    try {
      return { ...record, secret: keyring.open(record.secret) };
    } catch {
      return { ...record, secret: '' };
    }
  };
  const openedIfAny = (record: WebhookRecord | undefined) => (record ? opened(record) : undefined);
  return {
    create: async (input, now) => opened(await stored.create({ ...input, secret: keyring.seal(input.secret) }, now)),
    get: async (id) => openedIfAny(await stored.get(id)),
    list: async () => (await stored.list()).map(opened),
    update: async (id, patch, now) => openedIfAny(await stored.update(id, patch, now)),
    delete: (id) => stored.delete(id),
    enqueue: (event, now, options) => stored.enqueue(event, now, options),
    claimDue: (now, leaseUntil, limit) => stored.claimDue(now, leaseUntil, limit),
    recordAttempt: (id, attempt) => stored.recordAttempt(id, attempt),
    getDelivery: (id) => stored.getDelivery(id),
    listDeliveries: (request) => stored.listDeliveries(request),
    purgeBefore: (before, limit) => stored.purgeBefore(before, limit),
    resealSecrets: async () => {
      let resealed = 0;
      for (const record of await stored.list()) {
        if (!keyring.needsSealing(record.secret)) continue;
        const plain = opened(record).secret;
        if (plain === '') continue;
        if (await stored.rewriteSecret(record.id, record.secret, keyring.seal(plain))) resealed += 1;
      }
      return resealed;
    },
  };
}
