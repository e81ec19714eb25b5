import { MemoryAffinityStore } from './affinity-store';
import { describeAffinityStore } from '../../test/cluster/affinity-store.suite';

describe('MemoryAffinityStore', () => {
  describeAffinityStore(async () => new MemoryAffinityStore());

  it('holds at most its capacity, forgetting the session set longest ago', () => {
    const store = new MemoryAffinityStore(2);
    const pin = { channelId: 1, keyDigest: 'a'.repeat(64) };
    store.put('first', pin, 60_000);
    store.put('second', pin, 60_000);
    store.put('first', pin, 60_000); // set again: now the newest
    store.put('third', pin, 60_000);
    expect(store.size).toBe(2);
    expect(store.peek('second')).toBeUndefined();
    expect(store.peek('first')).toMatchObject(pin);
  });
});
