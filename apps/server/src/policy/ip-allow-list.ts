import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * A token's `allowed_ips` (SPEC §4) compiled into `net.BlockList`s. Rules arrive validated by
 * the contract's `IpRangeSchema`; anything that still does not parse is skipped, so a bad rule
 * never admits anyone.
 *
 * IPv4 and IPv6 rules are kept apart: an IPv4 client is checked against IPv4 rules only and an
 * IPv6 client against IPv6 rules only. (One BlockList would let `::/0` admit every IPv4 address
 * through the mapped range `::ffff:0:0/96`.) IPv4-mapped addresses, as a dual-stack socket
 * reports IPv4 clients (`::ffff:10.1.2.3`), count as IPv4 — on both sides.
 */
export interface IpAllowList {
  allows(clientIp: string | undefined): boolean;
}

interface CompiledRules {
  v4: BlockList;
  v6: BlockList;
}

type Family = 'ipv4' | 'ipv6';
interface Address {
  address: string;
  family: Family;
}

const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/** `::ffff:a01:203` (the URL parser's canonical form) → `10.1.2.3`. */
function mappedToIpv4(canonical: string): string | undefined {
  const match = MAPPED_HEX.exec(canonical);
  if (!match?.[1] || !match[2]) return undefined;
  const high = parseInt(match[1], 16);
  const low = parseInt(match[2], 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** An address as a family and text BlockList accepts; IPv4-mapped IPv6 becomes IPv4. */
export function normalizeAddress(text: string): Address | undefined {
  const address = text.trim().split('%')[0] ?? '';
  if (isIPv4(address)) return { address, family: 'ipv4' };
  if (!isIPv6(address)) return undefined;
  if (/ffff/i.test(address)) {
    // Any spelling (`::FFFF:10.1.2.3`, `0:0:0:0:0:ffff:a01:203`) → one canonical form.
    const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
    const ipv4 = mappedToIpv4(canonical);
    if (ipv4) return { address: ipv4, family: 'ipv4' };
  }
  return { address, family: 'ipv6' };
}

function addRule(rules: CompiledRules, rule: string): void {
  const [text = '', prefixText, extra] = rule.split('/');
  if (extra !== undefined) return;
  const parsed = normalizeAddress(text);
  if (!parsed) return;
  if (prefixText === undefined) {
    rules[parsed.family === 'ipv4' ? 'v4' : 'v6'].addAddress(parsed.address, parsed.family);
    return;
  }
  if (!/^\d{1,3}$/.test(prefixText)) return;
  let prefix = Number(prefixText);
  const wasMapped = parsed.family === 'ipv4' && !isIPv4(text.trim());
  if (wasMapped) {
    // `::ffff:10.0.0.0/104` is `10.0.0.0/8`; a shorter prefix reaches past the mapped range.
    if (prefix < 96) return addV6Subnet(rules, text.trim(), prefix);
    prefix -= 96;
  }
  if (parsed.family === 'ipv4') {
    if (prefix <= 32) rules.v4.addSubnet(parsed.address, prefix, 'ipv4');
    return;
  }
  addV6Subnet(rules, parsed.address, prefix);
}

function addV6Subnet(rules: CompiledRules, address: string, prefix: number): void {
  if (prefix <= 128) rules.v6.addSubnet(address, prefix, 'ipv6');
}

export function compileIpAllowList(rules: readonly string[]): IpAllowList {
  const compiled: CompiledRules = { v4: new BlockList(), v6: new BlockList() };
  for (const rule of rules) {
    try {
      addRule(compiled, rule);
    } catch {
      // Unparseable despite the contract (e.g. written straight into the database): skip it.
    }
  }
  // Callers come from few addresses: remember the answer per address (BlockList.check is not free).
  const answers = new Map<string, boolean>();
  const check = (clientIp: string): boolean => {
    const client = normalizeAddress(clientIp);
    if (!client) return false;
    return (client.family === 'ipv4' ? compiled.v4 : compiled.v6).check(client.address, client.family);
  };
  return {
    allows: (clientIp) => {
      if (clientIp === undefined) return false;
      let allowed = answers.get(clientIp);
      if (allowed === undefined) {
        allowed = check(clientIp);
        if (answers.size >= ANSWERS_LIMIT) answers.clear();
        answers.set(clientIp, allowed);
      }
      return allowed;
    },
  };
}

const ANSWERS_LIMIT = 256;

/** Compiled lists by their rules' text, and by the very array a cached token carries. */
const cache = new Map<string, IpAllowList>();
const byRules = new WeakMap<readonly string[], IpAllowList>();
const CACHE_LIMIT = 1000;

/** The allow-list for a token's `allowed_ips`, compiled once per distinct list. */
export function ipAllowListFor(rules: readonly string[]): IpAllowList {
  const known = byRules.get(rules);
  if (known) return known;
  const key = rules.join('\n');
  let list = cache.get(key);
  if (!list) {
    list = compileIpAllowList(rules);
    // Bounded: forget the oldest list once there are more distinct lists than tokens in use.
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(key, list);
  }
  byRules.set(rules, list);
  return list;
}

/** `null` = any address (SPEC §4); an empty list admits none. */
export function isIpAllowed(rules: readonly string[] | null, clientIp: string | undefined): boolean {
  return rules === null || ipAllowListFor(rules).allows(clientIp);
}
