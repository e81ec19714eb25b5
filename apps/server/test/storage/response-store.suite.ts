import { storedResponseBytes } from '../../src/storage/stored-response-size';
import { ROOMY } from './testing/roomy-limits';

export { ROOMY } from './testing/roomy-limits';
import { AlreadyExistsError, type ResponseStore, type StoredResponseLimits, type StoredResponseRecord } from '../../src/storage/types';

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
    const put = (record: StoredResponseRecord) => store.put(record, ROOMY);

    describe('put and get', () => {
      it('reads a Response back as it was answered: key order kept, and prompt text with U+0000 kept', async () => {
        const response = { status: 'completed', id: 'resp_order', object: 'response', output: [{ type: 'message', id: 'msg_z', role: 'assistant' }] };
        const inputItems = [{ type: 'message', role: 'user', id: 'msg_in', content: [{ type: 'input_text', text: 'a\u0000b' }] }];
        await put(bridged('resp_order', { response, inputItems }));
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
        await put(record);
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
        await put(record);
        expect(await store.get('resp_native', accountId, NOW)).toEqual(record);
      });

      it("answers undefined for an unknown id and for another account's response", async () => {
        await put(bridged('resp_mine'));
        expect(await store.get('resp_unknown', accountId, NOW)).toBeUndefined();
        expect(await store.get('resp_mine', fixture.otherAccountId, NOW)).toBeUndefined();
        expect(await store.get('resp_mine', accountId, NOW)).toBeDefined();
      });

      it('replaces the row with the same id (a background response finishing)', async () => {
        await put(bridged('resp_bg', { status: 'queued', response: { id: 'resp_bg', status: 'queued' }, expiresAt: '2026-03-02T00:00:00.000Z' }));
        const finished = bridged('resp_bg', { status: 'completed', response: { id: 'resp_bg', status: 'completed', output_text: 'done' } });
        await put(finished);
        expect(await store.get('resp_bg', accountId, NOW)).toEqual(finished);
        // One row: deleting it once leaves nothing.
        expect(await store.delete('resp_bg', accountId)).toBe(true);
        expect(await store.get('resp_bg', accountId, NOW)).toBeUndefined();
      });

      it("refuses to put over another account's response and leaves it as it was", async () => {
        const mine = bridged('resp_taken');
        await put(mine);
        await expect(put(bridged('resp_taken', { accountId: fixture.otherAccountId, status: 'failed' }))).rejects.toBeInstanceOf(
          AlreadyExistsError,
        );
        expect(await store.get('resp_taken', accountId, NOW)).toEqual(mine);
        expect(await store.get('resp_taken', fixture.otherAccountId, NOW)).toBeUndefined();
      });
    });

    describe('expiry', () => {
      it('hides a response from the moment it expires', async () => {
        await put(bridged('resp_short', { expiresAt: NOW }));
        expect(await store.get('resp_short', accountId, EARLIER)).toBeDefined();
        expect(await store.get('resp_short', accountId, NOW)).toBeUndefined();
      });

      it('purges the rows expired at now, of every account, counts them, and keeps the others', async () => {
        await put(bridged('resp_old_1', { expiresAt: EARLIER }));
        await put(bridged('resp_old_2', { expiresAt: NOW }));
        await put(bridged('resp_old_other', { accountId: fixture.otherAccountId, expiresAt: EARLIER }));
        await put(bridged('resp_fresh', { expiresAt: LATER }));

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
        await put(bridged('resp_1'));
        await put(bridged('resp_2', { previousResponseId: 'resp_1' }));
        await put(bridged('resp_3', { previousResponseId: 'resp_2' }));
        await put(bridged('resp_4', { previousResponseId: 'resp_3' }));
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
        await put(bridged('resp_after_missing', { previousResponseId: 'resp_never_stored' }));
        expect(ids(await store.chain('resp_after_missing', accountId, NOW, 10))).toEqual(['resp_after_missing']);

        await put(bridged('resp_expired', { expiresAt: NOW }));
        await put(bridged('resp_after_expired', { previousResponseId: 'resp_expired' }));
        expect(ids(await store.chain('resp_after_expired', accountId, NOW, 10))).toEqual(['resp_after_expired']);
        expect(ids(await store.chain('resp_after_expired', accountId, EARLIER, 10))).toEqual(['resp_expired', 'resp_after_expired']);

        await put(bridged('resp_theirs', { accountId: fixture.otherAccountId }));
        await put(bridged('resp_mine_after_theirs', { previousResponseId: 'resp_theirs' }));
        expect(ids(await store.chain('resp_mine_after_theirs', accountId, NOW, 10))).toEqual(['resp_mine_after_theirs']);
      });

      it("answers nothing for an unknown id, an expired one, or another account's", async () => {
        await putLine();
        expect(await store.chain('resp_unknown', accountId, NOW, 10)).toEqual([]);
        expect(await store.chain('resp_4', fixture.otherAccountId, NOW, 10)).toEqual([]);
        expect(await store.chain('resp_4', accountId, LATER, 10)).toEqual([]);
      });

      it('gives each record once when links form a cycle', async () => {
        await put(bridged('resp_a', { previousResponseId: 'resp_b' }));
        await put(bridged('resp_b', { previousResponseId: 'resp_a' }));
        expect(ids(await store.chain('resp_a', accountId, NOW, 10))).toEqual(['resp_b', 'resp_a']);
      });
    });

    describe('findItems', () => {
      const output = (id: string, text: string) => ({ id, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
      const withOutput = (id: string, createdAt: string, items: Record<string, unknown>[]) =>
        bridged(id, { createdAt, response: { id, object: 'response', status: 'completed', output: items } });

      it('finds output and input items by id among the account’s bridged responses, the newest response first', async () => {
        await put(withOutput('resp_old', '2026-03-01T10:00:00.000Z', [output('msg_shared', 'old'), output('msg_only_old', 'x')]));
        await put(withOutput('resp_new', '2026-03-01T11:30:00.000Z', [output('msg_shared', 'new')]));
        const found = await store.findItems(accountId, ['msg_shared', 'msg_only_old', 'msg_resp_new', 'msg_nowhere'], NOW, 10);
        expect(found.map((item) => [item['id'], (item['content'] as Array<{ text?: string }> | undefined)?.[0]?.text])).toEqual([
          ['msg_shared', 'new'],
          ['msg_resp_new', 'hi'],
          ['msg_shared', 'old'],
          ['msg_only_old', 'x'],
        ]);
      });

      it('looks at no other account, no expired response, nothing native, and only the `recent` latest responses', async () => {
        await put(withOutput('resp_mine_old', '2026-03-01T09:00:00.000Z', [output('msg_a', 'a')]));
        await put(withOutput('resp_mine_new', '2026-03-01T10:00:00.000Z', [output('msg_b', 'b')]));
        await put(withOutput('resp_expired', '2026-03-01T10:30:00.000Z', [output('msg_c', 'c')]));
        await put({ ...withOutput('resp_expired2', '2026-03-01T10:40:00.000Z', [output('msg_d', 'd')]), expiresAt: EARLIER });
        await put({ ...withOutput('resp_theirs', '2026-03-01T10:50:00.000Z', [output('msg_e', 'e')]), accountId: fixture.otherAccountId });
        await put({ ...withOutput('resp_native', '2026-03-01T10:55:00.000Z', [output('msg_f', 'f')]), origin: 'native' });
        const wanted = ['msg_a', 'msg_b', 'msg_c', 'msg_d', 'msg_e', 'msg_f'];
        expect((await store.findItems(accountId, wanted, NOW, 10)).map((item) => item['id'])).toEqual(['msg_c', 'msg_b', 'msg_a']);
        expect((await store.findItems(accountId, wanted, NOW, 2)).map((item) => item['id'])).toEqual(['msg_c', 'msg_b']);
        expect(await store.findItems(accountId, [], NOW, 10)).toEqual([]);
      });
    });

    describe('the per-account bound (issue 26: stored responses had no cap)', () => {
      /** `n` minutes after EARLIER: the order responses were created in. */
      const at = (n: number) => new Date(Date.parse(EARLIER) + n * 60_000).toISOString();
      /** A bridged response of `accountId` created at `at(n)`, its input `padding` characters long. */
      const sized = (id: string, n: number, padding = 100, owner = accountId) =>
        bridged(id, { accountId: owner, createdAt: at(n), inputItems: [{ id: `msg_${id}`, type: 'message', role: 'user', content: 'x'.repeat(padding) }] });
      const bound = (limits: Partial<StoredResponseLimits>): StoredResponseLimits => ({ ...ROOMY, ...limits });
      const kept = async (candidates: readonly string[], owner = accountId) => {
        const found: string[] = [];
        for (const id of candidates) if (await store.get(id, owner, NOW)) found.push(id);
        return found;
      };
      /** Ids of one length, so that records `sized` alike are of one size. */
      const names = (count: number, prefix = 'resp_n') => Array.from({ length: count }, (_, index) => `${prefix}${String(index).padStart(2, '0')}`);

      it('keeps at most maxCount responses of the account: the oldest go first, another account’s stay', async () => {
        const limits = bound({ maxCount: 3 });
        await store.put(sized('resp_theirs_1', 0, 100, fixture.otherAccountId), limits);
        await store.put(sized('resp_theirs_2', 1, 100, fixture.otherAccountId), limits);
        const outcomes = [];
        for (const [index, id] of names(5).entries()) outcomes.push(await store.put(sized(id, 10 + index), limits));
        expect(outcomes).toEqual([
          { stored: true, evicted: 0 },
          { stored: true, evicted: 0 },
          { stored: true, evicted: 0 },
          { stored: true, evicted: 1 },
          { stored: true, evicted: 1 },
        ]);
        expect(await kept(names(5))).toEqual(['resp_n02', 'resp_n03', 'resp_n04']);
        expect(await kept(['resp_theirs_1', 'resp_theirs_2'], fixture.otherAccountId)).toEqual(['resp_theirs_1', 'resp_theirs_2']);
      });

      it('keeps at most maxBytes, counted as storedResponseBytes: the newest that fit stay', async () => {
        const size = storedResponseBytes(sized('resp_n00', 0));
        expect(size).toBeGreaterThan(100);
        const limits = bound({ maxBytes: Math.floor(size * 2.5) });
        for (const [index, id] of names(4).entries()) await store.put(sized(id, index), limits);
        expect(await kept(names(4))).toEqual(['resp_n02', 'resp_n03']);
        expect((await store.usage([accountId], NOW)).get(accountId)).toEqual({ count: 2, bytes: 2 * size });
        // Exactly full is within the bound.
        expect(await store.put(sized('resp_f00', 9), bound({ maxBytes: 2 * size }))).toEqual({ stored: true, evicted: 1 });
        expect(await kept([...names(4), 'resp_f00'])).toEqual(['resp_n03', 'resp_f00']);
      });

      it('counts the response being put as the newest: a background response finishing stays, an older one goes', async () => {
        for (const [index, id] of names(3).entries()) await store.put(sized(id, index), ROOMY);
        const size = storedResponseBytes(sized('resp_n00', 0));
        // resp_n00 finishes with a larger answer: it replaces its row and pushes the oldest other out.
        const finished = sized('resp_n00', 0, 100 + size);
        expect(await store.put(finished, bound({ maxBytes: storedResponseBytes(finished) + 2 * size - 1, maxCount: 3 }))).toEqual({ stored: true, evicted: 1 });
        expect(await kept(names(3))).toEqual(['resp_n00', 'resp_n02']);
        expect(await store.get('resp_n00', accountId, NOW)).toEqual(finished);
        expect((await store.usage([accountId], NOW)).get(accountId)).toEqual({ count: 2, bytes: storedResponseBytes(finished) + size });
      });

      it('does not keep a response larger than the whole byte bound, nor its earlier version, and removes nothing else', async () => {
        const limits = bound({ maxBytes: 10_000 });
        await store.put(sized('resp_small_1', 0), limits);
        await store.put(sized('resp_small_2', 1), limits);
        await store.put(bridged('resp_big', { createdAt: at(2), status: 'queued', response: { id: 'resp_big', status: 'queued' } }), limits);
        expect(await store.put(sized('resp_big', 2, 20_000), limits)).toEqual({ stored: false, evicted: 0 });
        expect(await kept(['resp_small_1', 'resp_small_2', 'resp_big'])).toEqual(['resp_small_1', 'resp_small_2']);
        // Another account's id is refused as before, whatever its size.
        await expect(store.put(sized('resp_small_1', 3, 20_000, fixture.otherAccountId), limits)).rejects.toBeInstanceOf(AlreadyExistsError);
        expect(await kept(['resp_small_1'])).toEqual(['resp_small_1']);
      });

      it('counts only unexpired responses, and a native one as 0 bytes', async () => {
        await store.put(sized('resp_live', 0), ROOMY);
        await store.put({ ...sized('resp_gone', 1), expiresAt: NOW }, ROOMY);
        const native: StoredResponseRecord = { ...sized('resp_native', 2), origin: 'native', channelId: 1, keyDigest: 'b'.repeat(64), response: null, inputItems: null };
        await store.put(native, bound({ maxCount: 2 }));
        // resp_gone expired at NOW: only resp_live and the native one count, both stay.
        expect(await kept(['resp_live', 'resp_native'])).toEqual(['resp_live', 'resp_native']);
        expect(await store.usage([accountId, fixture.otherAccountId], NOW)).toEqual(
          new Map([
            [accountId, { count: 2, bytes: storedResponseBytes(sized('resp_live', 0)) }],
            [fixture.otherAccountId, { count: 0, bytes: 0 }],
          ]),
        );
        expect(await store.usage([], NOW)).toEqual(new Map());
      });

      it('holds when many puts of one account run at once: exactly maxCount kept, within maxBytes', async () => {
        const limits = bound({ maxCount: 10 });
        const outcomes = await Promise.all(names(40).map((id, index) => store.put(sized(id, index), limits)));
        expect(outcomes.every((outcome) => outcome.stored)).toBe(true);
        expect(outcomes.reduce((sum, outcome) => sum + outcome.evicted, 0)).toBe(30);
        expect((await store.usage([accountId], NOW)).get(accountId)?.count).toBe(10);
        expect(await kept(names(40))).toHaveLength(10);

        const size = storedResponseBytes(sized('resp_b00', 0));
        const byBytes = bound({ maxBytes: size * 7 + size / 2 });
        await Promise.all(names(30, 'resp_b').map((id, index) => store.put(sized(id, 100 + index), byBytes)));
        const usage = (await store.usage([accountId], NOW)).get(accountId);
        expect(usage).toEqual({ count: 7, bytes: 7 * size });
      });
    });

    describe('delete', () => {
      it("deletes only the account's own response, once", async () => {
        await put(bridged('resp_del'));
        expect(await store.delete('resp_del', fixture.otherAccountId)).toBe(false);
        expect(await store.get('resp_del', accountId, NOW)).toBeDefined();
        expect(await store.delete('resp_del', accountId)).toBe(true);
        expect(await store.get('resp_del', accountId, NOW)).toBeUndefined();
        expect(await store.delete('resp_del', accountId)).toBe(false);
      });
    });
  });
}
