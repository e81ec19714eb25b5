import { MemoryAffinityStore, type AffinityPin } from '../cluster/affinity-store';
import { SessionAffinity } from './session-affinity';

const pin = (channelId: number, key = 'a'): AffinityPin => ({ channelId, keyDigest: key.repeat(64) });

/** A shared store that counts its calls (what Redis would be asked). */
class CountingStore extends MemoryAffinityStore {
  gets = 0;
  sets = 0;
  deletes = 0;
  override async get(session: string) {
    this.gets += 1;
    return super.get(session);
  }
  override async set(session: string, value: AffinityPin, ttlMs: number) {
    this.sets += 1;
    return super.set(session, value, ttlMs);
  }
  override async delete(session: string) {
    this.deletes += 1;
    return super.delete(session);
  }
}

describe('SessionAffinity', () => {
  let now = 1_000_000;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000_000;
  });

  it('in memory alone: a pin is known at once (no promise), renewed by each lookup, forgotten after the TTL unused', () => {
    const affinity = new SessionAffinity({ ttlMs: 1_000, clock });
    expect(affinity.lookup('s')).toBeUndefined();
    affinity.served('s', undefined, pin(2));
    now += 900;
    const held = affinity.lookup('s');
    expect(held).toMatchObject(pin(2));
    affinity.served('s', held instanceof Promise ? undefined : held, pin(2));
    now += 900;
    expect(affinity.lookup('s')).toMatchObject(pin(2)); // renewed at 900, and again now
    now += 1_001;
    expect(affinity.lookup('s')).toBeUndefined();
  });

  it('a session served elsewhere (a retry) is pinned there; forget drops it', () => {
    const affinity = new SessionAffinity({ ttlMs: 60_000, clock });
    affinity.served('s', undefined, pin(1));
    const held = affinity.lookup('s');
    affinity.served('s', held instanceof Promise ? undefined : held, pin(2, 'b'));
    expect(affinity.lookup('s')).toMatchObject(pin(2, 'b'));
    affinity.forget('s');
    expect(affinity.lookup('s')).toBeUndefined();
  });

  it('with a shared store: read once per trust window, written when new or changed and at most once per read when in use', async () => {
    const shared = new CountingStore(100, clock);
    const affinity = new SessionAffinity({ ttlMs: 60_000, localTrustMs: 10_000, clock }, shared);
    // Another instance served the session: this one learns it from the shared store.
    await shared.set('s', pin(3), 60_000);
    shared.sets = 0;
    const first = await affinity.lookup('s');
    expect(first).toMatchObject(pin(3));
    expect(shared.gets).toBe(1);
    affinity.served('s', first, pin(3)); // renews the shared TTL once
    expect(shared.sets).toBe(1);
    for (let turn = 0; turn < 5; turn++) {
      now += 1_000;
      const held = affinity.lookup('s');
      expect(held).not.toBeInstanceOf(Promise); // trusted: no round trip
      affinity.served('s', held instanceof Promise ? undefined : held, pin(3));
    }
    expect([shared.gets, shared.sets]).toEqual([1, 1]);
    now += 10_000;
    expect(await affinity.lookup('s')).toMatchObject(pin(3));
    expect(shared.gets).toBe(2);
    affinity.forget('s');
    expect(shared.deletes).toBe(1);
    expect(await shared.get('s')).toBeUndefined();
  });

  it('with a shared store: a session another instance moved is seen after the trust window', async () => {
    const shared = new CountingStore(100, clock);
    const affinity = new SessionAffinity({ ttlMs: 60_000, localTrustMs: 10_000, clock }, shared);
    affinity.served('s', undefined, pin(1));
    await shared.set('s', pin(2), 60_000); // the other instance's retry went to channel 2
    expect(affinity.lookup('s')).toMatchObject(pin(1));
    now += 10_000;
    expect(await affinity.lookup('s')).toMatchObject(pin(2));
  });
});
