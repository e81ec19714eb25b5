import { adminCall } from '../../testing/spawned-setup';
import { chat, errorOf, newRequestId, sleep, usageRowsOf, type ChatOutcome } from './relay-calls';
import { describeTwoInstances, FLAT_PRICE, useTwoInstances } from './two-instances';

/** A change made on one instance must be in force on the other within this (RELAY_REFRESH_MS is 60 s here). */
const PROPAGATION_BOUND_MS = 1_000;

describeTwoInstances('two relays: a change made through one is in force on the other within 1 s (by message; RELAY_REFRESH_MS is 60 s)', () => {
  const cluster = useTwoInstances({ sims: 2 });

  describe('Bifrost: replicas never re-read config after start', () => {
    it('a token disabled through A is refused by B within 1 s', async () => {
      const { relay, createToken } = cluster();
      const token = await createToken();
      const [a, b] = [relay('a'), relay('b')];
      // B knows the token (cached) before the change.
      expect((await chat(b, token.key)).status).toBe(200);

      const changed = performance.now();
      await adminCall(a, 'PATCH', `/api/tokens/${token.id}`, { status: 'disabled' });
      let seen: ChatOutcome | undefined;
      let elapsed = 0;
      while (elapsed < 3_000) {
        seen = await chat(b, token.key);
        elapsed = performance.now() - changed;
        if (seen.status !== 200) break;
        await sleep(50);
      }
      console.info(`two-instance invalidation: token disabled on A, refused by B after ${Math.round(elapsed)} ms`);
      expect({ status: seen?.status, code: errorOf(seen!)?.code }).toEqual({ status: 401, code: 'token_disabled' });
      expect(elapsed).toBeLessThan(PROPAGATION_BOUND_MS);
      // And it stays refused on both.
      expect((await chat(a, token.key)).status).toBe(401);
      expect((await chat(b, token.key)).status).toBe(401);
    }, 20_000);

    it('a price changed on A is charged by B within 1 s', async () => {
      const { relay, createToken, db } = cluster();
      const token = await createToken();
      const b = relay('b');
      const oldCost = 5 * (FLAT_PRICE.output / 1_000_000);
      // B has read the price table before the change.
      const warm = await chat(b, token.key);
      expect(warm.status).toBe(200);

      const newPrice = { ...FLAT_PRICE, output: FLAT_PRICE.output * 3 };
      const changed = performance.now();
      await adminCall(relay('a'), 'PUT', '/api/prices', { data: [newPrice] });
      const sent: Array<{ requestId: string; sentAt: number }> = [];
      while (performance.now() - changed < PROPAGATION_BOUND_MS + 700) {
        const requestId = newRequestId('price');
        const sentAt = performance.now() - changed;
        expect((await chat(b, token.key, { requestId })).status).toBe(200);
        sent.push({ requestId, sentAt });
        await sleep(50);
      }
      const rows = await usageRowsOf(db, [warm.requestId, ...sent.map((entry) => entry.requestId)]);
      const costOf = new Map(rows.map((row) => [row.request_id, row.cost]));
      expect(costOf.get(warm.requestId)).toBe(oldCost);
      const firstNew = sent.find((entry) => costOf.get(entry.requestId) === oldCost * 3);
      const lateOld = sent.filter((entry) => entry.sentAt >= PROPAGATION_BOUND_MS && costOf.get(entry.requestId) !== oldCost * 3);
      console.info(
        `two-instance invalidation: price tripled on A; B's first request charged the new price was sent ${Math.round(firstNew?.sentAt ?? -1)} ms after; ` +
          `${sent.filter((entry) => entry.sentAt >= PROPAGATION_BOUND_MS).length} requests sent after ${PROPAGATION_BOUND_MS} ms, ${lateOld.length} at another price`,
      );
      expect(firstNew).toBeDefined();
      expect(firstNew!.sentAt).toBeLessThan(PROPAGATION_BOUND_MS);
      expect(lateOld).toEqual([]);
    }, 20_000);
  });

  describe('one-api: nodes keep routing to disabled channels', () => {
    it('a channel disabled on A is not picked by B after 1 s', async () => {
      const { relay, createToken, sims, channelIds } = cluster();
      const token = await createToken();
      const b = relay('b');
      const [kept, disabled] = sims as [(typeof sims)[0], (typeof sims)[0]];
      // B routes to both channels (same model, same priority and weight) before the change.
      for (let i = 0; i < 40 && (kept.requests.length === 0 || disabled.requests.length === 0); i += 1) {
        expect((await chat(b, token.key)).status).toBe(200);
      }
      expect(disabled.requests.length).toBeGreaterThan(0);
      expect(kept.requests.length).toBeGreaterThan(0);

      const changed = performance.now();
      await adminCall(relay('a'), 'PATCH', `/api/channels/${channelIds[1]}`, { enabled: false });
      // B's requests one after another: when each was sent, and whether it reached the disabled channel.
      let lastToDisabled = 0;
      let afterBound = 0;
      let afterBoundToDisabled = 0;
      while (performance.now() - changed < PROPAGATION_BOUND_MS + 1_000) {
        const before = disabled.requests.length;
        const sentAt = performance.now() - changed;
        expect((await chat(b, token.key)).status).toBe(200);
        const reachedDisabled = disabled.requests.length > before;
        if (reachedDisabled) lastToDisabled = sentAt;
        if (sentAt >= PROPAGATION_BOUND_MS) {
          afterBound += 1;
          if (reachedDisabled) afterBoundToDisabled += 1;
        }
        await sleep(20);
      }
      console.info(
        `two-instance invalidation: channel disabled on A; B's last request to it was sent ${Math.round(lastToDisabled)} ms after ` +
          `(0 = none after the change); of ${afterBound} requests sent after ${PROPAGATION_BOUND_MS} ms, ${afterBoundToDisabled} reached it`,
      );
      expect(afterBound).toBeGreaterThan(10);
      expect(afterBoundToDisabled).toBe(0);
      expect(lastToDisabled).toBeLessThan(PROPAGATION_BOUND_MS);
    }, 20_000);
  });
});
