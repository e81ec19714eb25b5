import { AlreadyExistsError, type ResponseStore, type StoredResponseRecord } from './types';

/** What a backend gives the suite: a store with two accounts of its own, emptied by `close`. */
export interface ResponseStoreFixture {
  store: ResponseStore;
  accountId: number;
  otherAccountId: number;
  close(): Promise<void>;
}

const NOW = '2026-03-01T12:00:00.000Z';
const EARLIER = '2026-03-01T11:00:00.000Z';
const LATER = '2026-03-31T12:00:00.000Z';

/** A minimal bridged response of `accountId`, for specs of a backend's own behaviour beside the suite. */
export const storedResponse = (id: string, accountId: number): StoredResponseRecord => ({
  id,
  accountId,
  tokenId: null,
  origin: 'bridged',
  channelId: null,
  keyDigest: null,
  model: 'gpt-4o-mini',
  previousResponseId: null,
  status: 'completed',
  response: { id },
  inputItems: [],
  createdAt: '2026-03-01T00:00:00.000Z',
  expiresAt: '2026-04-01T00:00:00.000Z',
});

/**
 * The behaviour every ResponseStore backend must show, run by each backend's spec on a real
 * database (`describeResponseStore('SQLite', …)`), so that SQLite and PostgreSQL cannot drift.
 * Times are fixed: the store compares them with the `now` it is given, never with the clock.
 */
export function describeResponseStore(name: string, open: () => Promise<ResponseStoreFixture>): void {
  describe(`ResponseStore (${name})`, () => {
    let fixture: ResponseStoreFixture;
    let store: ResponseStore;
    let accountId: number;

    beforeEach(async () => {
      fixture = await open();
      ({ store, accountId } = fixture);
    });
    afterEach(() => fixture.close());

    const bridged = (id: string, overrides: Partial<StoredResponseRecord> = {}): StoredResponseRecord => ({
      id,
      accountId,
      tokenId: null,
      origin: 'bridged',
      channelId: null,
      keyDigest: null,
      model: 'gpt-4o-mini',
      previousResponseId: null,
      status: 'completed',
      response: { id, object: 'response', status: 'completed', output: [] },
      inputItems: [{ id: `msg_${id}`, type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      createdAt: EARLIER,
      expiresAt: LATER,
      ...overrides,
    });
    const ids = (records: readonly StoredResponseRecord[]) => records.map((record) => record.id);

    describe('put and get', () => {
      it('reads a Response back as it was answered: key order kept, and prompt text with U+0000 kept', async () => {
        const response = { status: 'completed', id: 'resp_order', object: 'response', output: [{ type: 'message', id: 'msg_z', role: 'assistant' }] };
        const inputItems = [{ type: 'message', role: 'user', id: 'msg_in', content: [{ type: 'input_text', text: 'a\u0000b' }] }];
        await store.put(bridged('resp_order', { response, inputItems }));
        const found = await store.get('resp_order', accountId, NOW);
        expect(JSON.stringify(found?.response)).toBe(JSON.stringify(response));
        expect(JSON.stringify(found?.inputItems)).toBe(JSON.stringify(inputItems));
        expect(await store.findItems(accountId, ['msg_in'], NOW, 10)).toEqual(inputItems);
      });

      it('gives back every field of a bridged response as put, its JSON columns included', async () => {
        const record = bridged('resp_bridged', {
          tokenId: 7,
          channelId: 3,
          previousResponseId: 'resp_before',
          status: 'incomplete',
          response: {
            id: 'resp_bridged',
            object: 'response',
            status: 'incomplete',
            incomplete_details: { reason: 'max_output_tokens' },
            output: [{ type: 'message', id: 'msg_1', content: [{ type: 'output_text', text: 'Grüße, 世界 "quoted" \\ \n', annotations: [] }] }],
            usage: { input_tokens: 12, output_tokens: 0.5, total_tokens: 12.5 },
            metadata: { empty: {}, none: null, flags: [true, false] },
          },
          inputItems: [
            { id: 'msg_a', type: 'message', role: 'user', content: 'first' },
            { id: 'fc_b', type: 'function_call_output', call_id: 'call_1', output: '{"ok":true}' },
          ],
        });
        await store.put(record);
        expect(await store.get('resp_bridged', accountId, NOW)).toEqual(record);
      });

      it('gives back a native response: where it lives, and no body', async () => {
        const record: StoredResponseRecord = {
          ...bridged('resp_native'),
          origin: 'native',
          tokenId: 2,
          channelId: 9,
          keyDigest: 'a'.repeat(64),
          status: 'in_progress',
          response: null,
          inputItems: null,
        };
        await store.put(record);
        expect(await store.get('resp_native', accountId, NOW)).toEqual(record);
      });

      it("answers undefined for an unknown id and for another account's response", async () => {
        await store.put(bridged('resp_mine'));
        expect(await store.get('resp_unknown', accountId, NOW)).toBeUndefined();
        expect(await store.get('resp_mine', fixture.otherAccountId, NOW)).toBeUndefined();
        expect(await store.get('resp_mine', accountId, NOW)).toBeDefined();
      });

      it('replaces the row with the same id (a background response finishing)', async () => {
        await store.put(bridged('resp_bg', { status: 'queued', response: { id: 'resp_bg', status: 'queued' }, expiresAt: '2026-03-02T00:00:00.000Z' }));
        const finished = bridged('resp_bg', { status: 'completed', response: { id: 'resp_bg', status: 'completed', output_text: 'done' } });
        await store.put(finished);
        expect(await store.get('resp_bg', accountId, NOW)).toEqual(finished);
        // One row: deleting it once leaves nothing.
        expect(await store.delete('resp_bg', accountId)).toBe(true);
        expect(await store.get('resp_bg', accountId, NOW)).toBeUndefined();
      });

      it("refuses to put over another account's response and leaves it as it was", async () => {
        const mine = bridged('resp_taken');
        await store.put(mine);
        await expect(store.put(bridged('resp_taken', { accountId: fixture.otherAccountId, status: 'failed' }))).rejects.toBeInstanceOf(
          AlreadyExistsError,
        );
        expect(await store.get('resp_taken', accountId, NOW)).toEqual(mine);
        expect(await store.get('resp_taken', fixture.otherAccountId, NOW)).toBeUndefined();
      });
    });

    describe('expiry', () => {
      it('hides a response from the moment it expires', async () => {
        await store.put(bridged('resp_short', { expiresAt: NOW }));
        expect(await store.get('resp_short', accountId, EARLIER)).toBeDefined();
        expect(await store.get('resp_short', accountId, NOW)).toBeUndefined();
      });

      it('purges the rows expired at now, of every account, counts them, and keeps the others', async () => {
        await store.put(bridged('resp_old_1', { expiresAt: EARLIER }));
        await store.put(bridged('resp_old_2', { expiresAt: NOW }));
        await store.put(bridged('resp_old_other', { accountId: fixture.otherAccountId, expiresAt: EARLIER }));
        await store.put(bridged('resp_fresh', { expiresAt: LATER }));

        expect(await store.purgeExpired(NOW)).toBe(3);
        // Gone, not only hidden: asked at a time they were still valid, they are not found.
        const before = '2026-01-01T00:00:00.000Z';
        expect(await store.get('resp_old_1', accountId, before)).toBeUndefined();
        expect(await store.get('resp_old_2', accountId, before)).toBeUndefined();
        expect(await store.get('resp_old_other', fixture.otherAccountId, before)).toBeUndefined();
        expect(await store.get('resp_fresh', accountId, NOW)).toMatchObject({ id: 'resp_fresh', expiresAt: LATER });
        expect(await store.purgeExpired(NOW)).toBe(0);
      });
    });

    describe('chain', () => {
      /** resp_1 ← resp_2 ← resp_3 ← resp_4, each naming the one before. */
      async function putLine(): Promise<void> {
        await store.put(bridged('resp_1'));
        await store.put(bridged('resp_2', { previousResponseId: 'resp_1' }));
        await store.put(bridged('resp_3', { previousResponseId: 'resp_2' }));
        await store.put(bridged('resp_4', { previousResponseId: 'resp_3' }));
      }

      it('follows previous_response_id back, oldest first, the asked one last, whole records', async () => {
        await putLine();
        const chain = await store.chain('resp_4', accountId, NOW, 10);
        expect(ids(chain)).toEqual(['resp_1', 'resp_2', 'resp_3', 'resp_4']);
        expect(chain[2]).toEqual(bridged('resp_3', { previousResponseId: 'resp_2' }));
        expect(ids(await store.chain('resp_2', accountId, NOW, 10))).toEqual(['resp_1', 'resp_2']);
        expect(ids(await store.chain('resp_1', accountId, NOW, 10))).toEqual(['resp_1']);
      });

      it('keeps the newest maxDepth records', async () => {
        await putLine();
        expect(ids(await store.chain('resp_4', accountId, NOW, 2))).toEqual(['resp_3', 'resp_4']);
        expect(ids(await store.chain('resp_4', accountId, NOW, 1))).toEqual(['resp_4']);
        expect(ids(await store.chain('resp_4', accountId, NOW, 4))).toEqual(['resp_1', 'resp_2', 'resp_3', 'resp_4']);
        expect(await store.chain('resp_4', accountId, NOW, 0)).toEqual([]);
      });

      it('stops at a missing link, an expired one, and one of another account', async () => {
        await store.put(bridged('resp_after_missing', { previousResponseId: 'resp_never_stored' }));
        expect(ids(await store.chain('resp_after_missing', accountId, NOW, 10))).toEqual(['resp_after_missing']);

        await store.put(bridged('resp_expired', { expiresAt: NOW }));
        await store.put(bridged('resp_after_expired', { previousResponseId: 'resp_expired' }));
        expect(ids(await store.chain('resp_after_expired', accountId, NOW, 10))).toEqual(['resp_after_expired']);
        expect(ids(await store.chain('resp_after_expired', accountId, EARLIER, 10))).toEqual(['resp_expired', 'resp_after_expired']);

        await store.put(bridged('resp_theirs', { accountId: fixture.otherAccountId }));
        await store.put(bridged('resp_mine_after_theirs', { previousResponseId: 'resp_theirs' }));
        expect(ids(await store.chain('resp_mine_after_theirs', accountId, NOW, 10))).toEqual(['resp_mine_after_theirs']);
      });

      it("answers nothing for an unknown id, an expired one, or another account's", async () => {
        await putLine();
        expect(await store.chain('resp_unknown', accountId, NOW, 10)).toEqual([]);
        expect(await store.chain('resp_4', fixture.otherAccountId, NOW, 10)).toEqual([]);
        expect(await store.chain('resp_4', accountId, LATER, 10)).toEqual([]);
      });

      it('gives each record once when links form a cycle', async () => {
        await store.put(bridged('resp_a', { previousResponseId: 'resp_b' }));
        await store.put(bridged('resp_b', { previousResponseId: 'resp_a' }));
        expect(ids(await store.chain('resp_a', accountId, NOW, 10))).toEqual(['resp_b', 'resp_a']);
      });
    });

    describe('findItems', () => {
      const output = (id: string, text: string) => ({ id, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
      const withOutput = (id: string, createdAt: string, items: Record<string, unknown>[]) =>
        bridged(id, { createdAt, response: { id, object: 'response', status: 'completed', output: items } });

      it('finds output and input items by id among the account’s bridged responses, the newest response first', async () => {
        await store.put(withOutput('resp_old', '2026-03-01T10:00:00.000Z', [output('msg_shared', 'old'), output('msg_only_old', 'x')]));
        await store.put(withOutput('resp_new', '2026-03-01T11:30:00.000Z', [output('msg_shared', 'new')]));
        const found = await store.findItems(accountId, ['msg_shared', 'msg_only_old', 'msg_resp_new', 'msg_nowhere'], NOW, 10);
        expect(found.map((item) => [item['id'], (item['content'] as Array<{ text?: string }> | undefined)?.[0]?.text])).toEqual([
          ['msg_shared', 'new'],
          ['msg_resp_new', 'hi'],
          ['msg_shared', 'old'],
          ['msg_only_old', 'x'],
        ]);
      });

      it('looks at no other account, no expired response, nothing native, and only the `recent` latest responses', async () => {
        await store.put(withOutput('resp_mine_old', '2026-03-01T09:00:00.000Z', [output('msg_a', 'a')]));
        await store.put(withOutput('resp_mine_new', '2026-03-01T10:00:00.000Z', [output('msg_b', 'b')]));
        await store.put(withOutput('resp_expired', '2026-03-01T10:30:00.000Z', [output('msg_c', 'c')]));
        await store.put({ ...withOutput('resp_expired2', '2026-03-01T10:40:00.000Z', [output('msg_d', 'd')]), expiresAt: EARLIER });
        await store.put({ ...withOutput('resp_theirs', '2026-03-01T10:50:00.000Z', [output('msg_e', 'e')]), accountId: fixture.otherAccountId });
        await store.put({ ...withOutput('resp_native', '2026-03-01T10:55:00.000Z', [output('msg_f', 'f')]), origin: 'native' });
        const wanted = ['msg_a', 'msg_b', 'msg_c', 'msg_d', 'msg_e', 'msg_f'];
        expect((await store.findItems(accountId, wanted, NOW, 10)).map((item) => item['id'])).toEqual(['msg_c', 'msg_b', 'msg_a']);
        expect((await store.findItems(accountId, wanted, NOW, 2)).map((item) => item['id'])).toEqual(['msg_c', 'msg_b']);
        expect(await store.findItems(accountId, [], NOW, 10)).toEqual([]);
      });
    });

    describe('delete', () => {
      it("deletes only the account's own response, once", async () => {
        await store.put(bridged('resp_del'));
        expect(await store.delete('resp_del', fixture.otherAccountId)).toBe(false);
        expect(await store.get('resp_del', accountId, NOW)).toBeDefined();
        expect(await store.delete('resp_del', accountId)).toBe(true);
        expect(await store.get('resp_del', accountId, NOW)).toBeUndefined();
        expect(await store.delete('resp_del', accountId)).toBe(false);
      });
    });
  });
}
