import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../security/keys';

/** A generated signing secret: `whsec_` + 32 base62 characters (Stripe's and Svix's form). */
export const generateWebhookSecret = (): string => `whsec_${randomBase62(32)}`;

/** What the API shows of a secret, ever after its creation: its last four characters. */
export const webhookSecretHint = (secret: string): string => `...${secret.slice(-4)}`;

/** The hex HMAC-SHA256 of `"<t>.<raw body>"` under `secret`. */
export function webhookSignature(secret: string, unixSeconds: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
}

/**
 * The `x-relay-signature` header: `t=<unix seconds>,v1=<hex>`. The time is signed with the body,
 * so a receiver can refuse a delivery replayed long after (Stripe's scheme).
 */
export function signatureHeader(secret: string, unixSeconds: number, rawBody: string): string {
  return `t=${unixSeconds},v1=${webhookSignature(secret, unixSeconds, rawBody)}`;
}

/**
 * A receiver's check (the guide shows the same in a few lines): the header parses, one of its
 * `v1` signatures matches in constant time, and its time is within `toleranceSeconds` of `nowMs`.
 */
export function verifyWebhookSignature(secret: string, header: string, rawBody: string, nowMs = Date.now(), toleranceSeconds = 300): boolean {
  const parts = header.split(',').map((part) => part.trim().split('=') as [string, string | undefined]);
  const time = Number(parts.find(([name]) => name === 't')?.[1]);
  if (!Number.isSafeInteger(time) || Math.abs(nowMs / 1000 - time) > toleranceSeconds) return false;
  const expected = Buffer.from(webhookSignature(secret, time, rawBody), 'hex');
  return parts.some(([name, value]) => {
    if (name !== 'v1' || value === undefined || !/^[0-9a-f]{64}$/.test(value)) return false;
    return timingSafeEqual(Buffer.from(value, 'hex'), expected);
  });
}
