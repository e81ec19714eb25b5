import type { StoreBackend } from '../testing/store-backends';
import type { UpstreamObjectRecord } from '../../../src/storage/types';
import { storageForEachTest } from './open-with-sql';

const NOW = '2026-05-01T12:00:00.000Z';
const LATER = '2026-05-31T12:00:00.000Z';

const object = (accountId: number, id: string, overrides: Partial<UpstreamObjectRecord> = {}): UpstreamObjectRecord => ({
  kind: 'item',
  id,
  accountId,
  channelId: 1,
  createdAt: NOW,
  expiresAt: LATER,
  ...overrides,
});

/** The behaviour every UpstreamObjectStore shows, on each backend (describeEachBackend). */
export function describeUpstreamObjectStore(backend: StoreBackend): void {
  const storage = storageForEachTest(backend);
  const accounts = async () => [(await storage().accounts.createUser('caller')).id, (await storage().accounts.createUser('someone else')).id] as const;

  it("answers only the account's own unexpired ids of the kind asked", async () => {
    const [mine, theirs] = await accounts();
    await storage().upstreamObjects.remember([
      object(mine, 'msg_1'),
      object(mine, 'cntr_1', { kind: 'container' }),
      object(theirs, 'msg_2'),
      object(mine, 'msg_old', { expiresAt: NOW }),
    ]);
    const owned = await storage().upstreamObjects.owned(mine, 'item', ['msg_1', 'msg_2', 'msg_old', 'cntr_1', 'msg_unknown'], NOW);
    expect(owned).toEqual(['msg_1']);
    expect(await storage().upstreamObjects.owned(mine, 'container', ['cntr_1'], NOW)).toEqual(['cntr_1']);
    expect(await storage().upstreamObjects.owned(theirs, 'item', ['msg_1', 'msg_2'], NOW)).toEqual(['msg_2']);
    expect(await storage().upstreamObjects.owned(mine, 'item', [], NOW)).toEqual([]);
  });

  it('keeps the first owner of an id: another account recording it later does not take it over', async () => {
    const [mine, theirs] = await accounts();
    await storage().upstreamObjects.remember([object(mine, 'msg_1')]);
    await storage().upstreamObjects.remember([object(theirs, 'msg_1'), object(theirs, 'msg_1')]);
    expect(await storage().upstreamObjects.owned(theirs, 'item', ['msg_1'], NOW)).toEqual([]);
    expect(await storage().upstreamObjects.owned(mine, 'item', ['msg_1'], NOW)).toEqual(['msg_1']);
  });

  it('purges what expired, and forgets an account deleted with it', async () => {
    const [mine, theirs] = await accounts();
    await storage().upstreamObjects.remember([object(mine, 'msg_old', { expiresAt: NOW }), object(mine, 'msg_new'), object(theirs, 'msg_theirs')]);
    expect(await storage().upstreamObjects.purgeExpired(NOW)).toBe(1);
    expect(await storage().upstreamObjects.owned(mine, 'item', ['msg_old', 'msg_new'], '2026-01-01T00:00:00.000Z')).toEqual(['msg_new']);
    await storage().accounts.delete(theirs);
    expect(await storage().upstreamObjects.owned(theirs, 'item', ['msg_theirs'], NOW)).toEqual([]);
  });
}
