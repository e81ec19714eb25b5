import { z } from 'zod';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export const isIpv4 = (text: string): boolean => IPV4.test(text);

/** The URL parser knows IPv6 in every runtime (no node:net here: the contract runs anywhere). */
export function isIpv6(text: string): boolean {
  if (!text.includes(':') || /[[\]/%]/.test(text)) return false;
  try {
    return new URL(`http://[${text}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

/** An address (`10.0.0.7`, `2001:db8::1`) or a CIDR range (`10.0.0.0/8`, `2001:db8::/32`). */
export function isIpOrCidr(text: string): boolean {
  const [address = '', prefix, extra] = text.split('/');
  if (extra !== undefined) return false;
  const v4 = isIpv4(address);
  if (!v4 && !isIpv6(address)) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (v4 ? 32 : 128);
}

export const IpRangeSchema = z
  .string()
  .trim()
  .refine(isIpOrCidr, 'must be an IPv4 or IPv6 address or CIDR range, e.g. 10.0.0.0/8 or 2001:db8::/32');
