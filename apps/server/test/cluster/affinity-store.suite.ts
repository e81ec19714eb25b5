import type { AffinityPin, AffinityStore } from '../../src/cluster/affinity-store';

const digest = (character: string) => character.repeat(64);
const pin = (channelId: number, key = 'a'): AffinityPin => ({ channelId, keyDigest: digest(key) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What every AffinityStore does, run on memory and on Redis: `open` gives a fresh, empty store. */
export function describeAffinityStore(open: () => Promise<AffinityStore>): void {
  let store: AffinityStore;
  beforeEach(async () => {
    store = await open();
  });

  it('answers what was set for a session, and nothing for another', async () => {
    await store.set('token:1\u0000claude-sonnet-4-5\u0000s-1', pin(3, 'b'), 60_000);
    expect(await store.get('token:1\u0000claude-sonnet-4-5\u0000s-1')).toEqual(pin(3, 'b'));
    expect(await store.get('token:2\u0000claude-sonnet-4-5\u0000s-1')).toBeUndefined();
  });

  it('a later set replaces the pin (a retry served the session elsewhere)', async () => {
    await store.set('s', pin(1), 60_000);
    await store.set('s', pin(2, 'c'), 60_000);
    expect(await store.get('s')).toEqual(pin(2, 'c'));
  });

  it('forgets a session after its TTL, counted from the last set', async () => {
    // Margins of 100 ms and more: a sleep on a loaded machine (the whole suite's workers) runs late,
    // and 50 ms was not always enough (the Redis store read the session gone at its first check).
    await store.set('short', pin(1), 600);
    await store.set('long', pin(2), 60_000);
    await sleep(300);
    await store.set('short', pin(1), 600); // used again: its TTL starts over
    // 700 ms after the first set (gone, had the TTL not started over), 400 after the second.
    await sleep(400);
    expect(await store.get('short')).toEqual(pin(1));
    await sleep(350);
    expect(await store.get('short')).toBeUndefined();
    expect(await store.get('long')).toEqual(pin(2));
  });

  it('delete forgets the session at once', async () => {
    await store.set('s', pin(1), 60_000);
    await store.delete('s');
    expect(await store.get('s')).toBeUndefined();
    await expect(store.delete('never-set')).resolves.toBeUndefined();
  });
}
