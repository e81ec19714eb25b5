import { isIpOrCidr } from '@chat-relay/contract';
import { z } from 'zod';

/** The named ranges Express (proxy-addr) knows. */
export const TRUST_PROXY_PRESETS = ['loopback', 'linklocal', 'uniquelocal'] as const;
const isPreset = (entry: string): boolean => (TRUST_PROXY_PRESETS as readonly string[]).includes(entry);

/**
 * `RELAY_TRUST_PROXY` → what Express's `trust proxy` setting takes: the proxies whose
 * `X-Forwarded-For` is believed, so that `req.ip` (and the IP allow-list) sees the client
 * behind them. Only addresses, CIDR ranges and the named ranges: `true` or a hop count would
 * believe whatever any client writes in that header and make IP allow-lists worthless.
 */
export function parseTrustProxy(text: string): { ok: true; proxies: string[] } | { ok: false; message: string } {
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isPreset(entry.toLowerCase()) && !isIpOrCidr(entry));
  if (bad.length > 0) {
    const shown = bad.map((entry) => (entry === '' ? '(empty entry)' : `'${entry}'`)).join(', ');
    return {
      ok: false,
      message: `must be a comma-separated list of proxy addresses or CIDR ranges, or ${TRUST_PROXY_PRESETS.join(', ')} (not ${shown})`,
    };
  }
  return { ok: true, proxies: entries.map((entry) => (isPreset(entry.toLowerCase()) ? entry.toLowerCase() : entry)) };
}

/** The environment variable: unset or blank = trust no proxy (`req.ip` is the socket's peer). */
export const TrustProxyEnvSchema = z
  .string()
  .optional()
  .transform((value, context): string[] | undefined => {
    if (value === undefined || value.trim() === '') return undefined;
    const parsed = parseTrustProxy(value);
    if (parsed.ok) return parsed.proxies;
    context.addIssue({ code: z.ZodIssueCode.custom, message: parsed.message });
    return z.NEVER;
  });
