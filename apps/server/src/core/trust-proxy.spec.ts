import { ConfigError, loadConfig } from '../config';
import { parseTrustProxy } from './trust-proxy';

describe('RELAY_TRUST_PROXY', () => {
  it('unset or blank: no proxy is trusted', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ RELAY_TRUST_PROXY: '  ' }).trustProxy).toBeUndefined();
  });

  it('takes addresses, CIDR ranges and the named ranges', () => {
    expect(loadConfig({ RELAY_TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ RELAY_TRUST_PROXY: ' 10.0.0.0/8, fd00::/8 ,192.168.1.1, UniqueLocal,linklocal,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      '192.168.1.1',
      'uniquelocal',
      'linklocal',
      '::1',
    ]);
  });

  it.each(['true', '1', 'everything', '10.0.0.0/33', '10.0.0.0/8,', '10.0.0.0/8,,::1', '300.0.0.1'])(
    'stops start-up on %p, naming the variable',
    (value) => {
      expect(() => loadConfig({ RELAY_TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ RELAY_TRUST_PROXY: value })).toThrow(/RELAY_TRUST_PROXY: must be a comma-separated list/);
    },
  );

  it('says which entries are wrong', () => {
    expect(parseTrustProxy('loopback,nope,')).toEqual({
      ok: false,
      message: "must be a comma-separated list of proxy addresses or CIDR ranges, or loopback, linklocal, uniquelocal (not 'nope', (empty entry))",
    });
  });
});
