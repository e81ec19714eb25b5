import { compileIpAllowList, ipAllowListFor, isIpAllowed, normalizeAddress } from './ip-allow-list';

const allows = (rules: string[], client: string | undefined) => compileIpAllowList(rules).allows(client);

describe('IP allow-list', () => {
  it('null allows any address, an empty list none', () => {
    expect(isIpAllowed(null, '203.0.113.9')).toBe(true);
    expect(isIpAllowed(null, undefined)).toBe(true);
    expect(isIpAllowed([], '203.0.113.9')).toBe(false);
  });

  it('an exact IPv4 address', () => {
    expect(allows(['10.1.2.3'], '10.1.2.3')).toBe(true);
    expect(allows(['10.1.2.3'], '10.1.2.4')).toBe(false);
  });

  it.each([
    ['0.0.0.0/0', '203.0.113.9', true],
    ['0.0.0.0/0', '::1', false],
    ['10.0.0.0/8', '10.255.0.1', true],
    ['10.0.0.0/8', '11.0.0.1', false],
    ['10.0.0.0/8', '9.255.255.255', false],
    ['192.168.1.7/32', '192.168.1.7', true],
    ['192.168.1.7/32', '192.168.1.8', false],
  ])('IPv4 CIDR %s against %s → %s', (rule, client, expected) => {
    expect(allows([rule], client)).toBe(expected);
  });

  it('an exact IPv6 address, in any spelling', () => {
    expect(allows(['2001:db8::1'], '2001:db8::1')).toBe(true);
    expect(allows(['2001:db8::1'], '2001:0db8:0:0:0:0:0:1')).toBe(true);
    expect(allows(['2001:db8::1'], '2001:db8::2')).toBe(false);
    expect(allows(['::1'], '::1')).toBe(true);
  });

  it.each([
    ['2001:db8::/32', '2001:db8:ffff::5', true],
    ['2001:db8::/32', '2001:db9::5', false],
    ['2001:db8::7/128', '2001:db8::7', true],
    ['2001:db8::7/128', '2001:db8::8', false],
    ['::/0', '2001:db8::1', true],
  ])('IPv6 CIDR %s against %s → %s', (rule, client, expected) => {
    expect(allows([rule], client)).toBe(expected);
  });

  it('IPv4-mapped client addresses match IPv4 rules', () => {
    expect(allows(['10.0.0.0/8'], '::ffff:10.1.2.3')).toBe(true);
    expect(allows(['10.1.2.3'], '::FFFF:10.1.2.3')).toBe(true);
    expect(allows(['10.1.2.3'], '::ffff:a01:203')).toBe(true);
    expect(allows(['10.1.2.3'], '0:0:0:0:0:ffff:10.1.2.3')).toBe(true);
    expect(allows(['127.0.0.1/32'], '::ffff:127.0.0.1')).toBe(true);
    expect(allows(['10.0.0.0/8'], '::ffff:11.1.2.3')).toBe(false);
  });

  it('IPv4-mapped rules match IPv4 clients', () => {
    expect(allows(['::ffff:10.1.2.3'], '10.1.2.3')).toBe(true);
    expect(allows(['::ffff:10.0.0.0/104'], '10.9.9.9')).toBe(true);
    expect(allows(['::ffff:10.0.0.0/104'], '11.9.9.9')).toBe(false);
  });

  it('IPv6 ranges do not admit IPv4 clients through the mapped range', () => {
    expect(allows(['::/0'], '10.1.2.3')).toBe(false);
    expect(allows(['::/0'], '::ffff:10.1.2.3')).toBe(false);
  });

  it('several rules: any one admits', () => {
    const rules = ['10.0.0.0/8', '2001:db8::/32', '192.168.0.1'];
    expect(allows(rules, '10.0.0.1')).toBe(true);
    expect(allows(rules, '2001:db8::9')).toBe(true);
    expect(allows(rules, '192.168.0.1')).toBe(true);
    expect(allows(rules, '172.16.0.1')).toBe(false);
  });

  it.each([undefined, '', 'garbage', '10.1.2', '10.1.2.3.4', '300.1.2.3', '::ffff:300.1.2.3', '10.1.2.3/8', '[::1]'])(
    'a malformed client address %p never matches',
    (client) => {
      expect(allows(['0.0.0.0/0', '::/0'], client)).toBe(false);
    },
  );

  it('a zone index on a link-local client address is ignored', () => {
    expect(allows(['fe80::/10'], 'fe80::1%eth0')).toBe(true);
  });

  it('a rule that does not parse admits nobody and does not break the others', () => {
    expect(allows(['not-an-ip', '10.0.0.0/99', '10.0.0.0/8'], '10.1.1.1')).toBe(true);
    expect(allows(['not-an-ip', '10.0.0.0/99'], '10.1.1.1')).toBe(false);
  });

  it('compiles each distinct list once', () => {
    const first = ipAllowListFor(['10.0.0.0/8', '::1']);
    expect(ipAllowListFor(['10.0.0.0/8', '::1'])).toBe(first);
    expect(ipAllowListFor(['10.0.0.0/8'])).not.toBe(first);
  });

  it('normalizes addresses to what BlockList expects', () => {
    expect(normalizeAddress('::ffff:127.0.0.1')).toEqual({ address: '127.0.0.1', family: 'ipv4' });
    expect(normalizeAddress('::1')).toEqual({ address: '::1', family: 'ipv6' });
    expect(normalizeAddress('nope')).toBeUndefined();
  });
});
