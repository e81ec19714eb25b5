import type { CloudKey } from '@chat-relay/wire';
import type { CloudTokenStore } from '../../cluster/cloud-token-store';
import { AccessTokens, REFRESH_MARGIN_MS } from './access-tokens';
import type { MintedToken } from './mint-access-token';

const ACCOUNT: CloudKey = { kind: 'google-service-account', projectId: 'p', clientEmail: 'a@p.iam.gserviceaccount.com', privateKey: 'unused', tokenUri: 'http://unused' };
const HOUR = 3_600_000;

/** Tokens minted in order (`t1`, `t2` …), each valid for an hour from the clock's time. */
function minter(clock: { now: number }) {
  let minted = 0;
  const mint = jest.fn(async (): Promise<MintedToken> => {
    minted += 1;
    await new Promise((resolve) => setImmediate(resolve));
    return { token: `t${minted}`, expiresAt: clock.now + HOUR };
  });
  return mint;
}

/** CloudTokenStore in a Map: the interface as Redis implements it (redis-cloud-token-store.spec.ts runs the real one). */
function mapShared(): CloudTokenStore & { values: Map<string, string> } {
  const values = new Map<string, string>();
  const leases = new Set<string>();
  return {
    values,
    read: async (id) => values.get(id),
    claim: async (id) => (leases.has(id) ? false : (leases.add(id), true)),
    write: async (id, sealed) => {
      values.set(id, sealed);
      leases.delete(id);
    },
  };
}

describe('AccessTokens', () => {
  it('mints once for concurrent callers, reuses the token, and mints again within the refresh margin of its expiry', async () => {
    const clock = { now: 1_000_000 };
    const mint = minter(clock);
    const tokens = new AccessTokens({ mint, now: () => clock.now });
    const first = await Promise.all([tokens.tokenFor('key-a', ACCOUNT), tokens.tokenFor('key-a', ACCOUNT), tokens.tokenFor('key-a', ACCOUNT)]);
    expect(first).toEqual(['t1', 't1', 't1']);
    clock.now += HOUR - REFRESH_MARGIN_MS - 1;
    expect(await tokens.tokenFor('key-a', ACCOUNT)).toBe('t1');
    clock.now += 2;
    expect(await tokens.tokenFor('key-a', ACCOUNT)).toBe('t2');
    expect(await tokens.tokenFor('key-b', ACCOUNT)).toBe('t3');
    expect(mint).toHaveBeenCalledTimes(3);
  });

  it('lets one instance mint for the others through the shared store, sealed: the store never holds the token', async () => {
    const clock = { now: 5_000_000 };
    const shared = mapShared();
    const mint = minter(clock);
    const instances = [0, 1, 2].map(() => new AccessTokens({ mint, now: () => clock.now, shared, sleep: () => new Promise((resolve) => setImmediate(resolve)) }));
    const got = await Promise.all(instances.map((tokens) => tokens.tokenFor('service-account-json', ACCOUNT)));
    expect(got).toEqual(['t1', 't1', 't1']);
    expect(mint).toHaveBeenCalledTimes(1);
    const [stored] = [...shared.values.values()];
    expect(stored).toBeDefined();
    expect(stored).not.toContain('t1');
    expect(Buffer.from(stored ?? '', 'base64url').toString('latin1')).not.toContain('t1');
    // Another credential cannot open it: filed under another id anyway.
    expect(await instances[0]?.tokenFor('another-key', ACCOUNT)).toBe('t2');
  });

  it('looks again after claiming: a peer that wrote its token and let the lease go between the look and the claim is not minted for twice', async () => {
    const clock = { now: 0 };
    const shared = mapShared();
    const mint = minter(clock);
    const sleep = () => new Promise<void>((resolve) => setImmediate(resolve));
    expect(await new AccessTokens({ mint, now: () => clock.now, shared, sleep }).tokenFor('k', ACCOUNT)).toBe('t1');
    // The second instance's first look came just before the peer's write: it saw nothing, and by its claim the lease was free again.
    let looks = 0;
    const late: CloudTokenStore = { ...shared, read: async (id) => (++looks === 1 ? undefined : shared.read(id)) };
    expect(await new AccessTokens({ mint, now: () => clock.now, shared: late, sleep }).tokenFor('k', ACCOUNT)).toBe('t1');
    expect(mint).toHaveBeenCalledTimes(1);
    expect(looks).toBe(2);
  });

  it('mints its own when the minting peer never delivers (its lease held, nothing written)', async () => {
    const clock = { now: 0 };
    const mint = minter(clock);
    const stuck: CloudTokenStore = { read: async () => undefined, claim: async () => false, write: async () => undefined };
    let slept = 0;
    const tokens = new AccessTokens({ mint, now: () => clock.now, shared: stuck, sleep: async (ms) => void (slept += ms) });
    expect(await tokens.tokenFor('k', ACCOUNT)).toBe('t1');
    expect(slept).toBe(3_000);
  });

  it('a token the cloud refused is forgotten here and not taken back from the shared store: the next call mints afresh', async () => {
    const clock = { now: 0 };
    const shared = mapShared();
    const mint = minter(clock);
    const sleep = () => new Promise<void>((resolve) => setImmediate(resolve));
    const [a, b] = [new AccessTokens({ mint, now: () => clock.now, shared, sleep }), new AccessTokens({ mint, now: () => clock.now, shared, sleep })];
    expect(await a.tokenFor('k', ACCOUNT)).toBe('t1');
    expect(await b.tokenFor('k', ACCOUNT)).toBe('t1');
    b.forget('k', 't1');
    expect(await b.tokenFor('k', ACCOUNT)).toBe('t2');
    // A stale refusal (of a token already replaced) does not throw the new one away.
    b.forget('k', 't1');
    expect(await b.tokenFor('k', ACCOUNT)).toBe('t2');
    expect(mint).toHaveBeenCalledTimes(2);
  });

  it('does not take a shared token that is about to expire', async () => {
    const clock = { now: 10 * HOUR };
    const shared = mapShared();
    const early = new AccessTokens({ mint: async () => ({ token: 'old', expiresAt: clock.now + HOUR }), now: () => clock.now, shared });
    expect(await early.tokenFor('k', ACCOUNT)).toBe('old');
    clock.now += HOUR - REFRESH_MARGIN_MS + 1;
    const mint = minter(clock);
    const late = new AccessTokens({ mint, now: () => clock.now, shared });
    expect(await late.tokenFor('k', ACCOUNT)).toBe('t1');
  });
});
