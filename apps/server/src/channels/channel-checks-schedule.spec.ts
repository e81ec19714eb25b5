import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { loadConfig } from '../config';
import { SIM_KEY, startE2eRelay, type E2eRelay } from '../../test/e2e/e2e-relay';
import { createLogger } from '../logger';
import { ChannelChecks, type ChannelChecksOptions } from './channel-checks';

const REFUSED_KEY = 'sk-revoked-key-0123456789';
const hello = { model: 'gpt-4o', max_tokens: 20, messages: [{ role: 'user', content: 'Hello there' }] };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('issue 16: RELAY_CHANNEL_CHECK_MS', () => {
  it('defaults to five minutes; 0 turns the schedule off; other values are at least a second', () => {
    expect(loadConfig({}).channelCheckMs).toBe(300_000);
    expect(loadConfig({ RELAY_CHANNEL_CHECK_MS: '0' }).channelCheckMs).toBe(0);
    expect(loadConfig({ RELAY_CHANNEL_CHECK_MS: '60000' }).channelCheckMs).toBe(60_000);
    expect(() => loadConfig({ RELAY_CHANNEL_CHECK_MS: '500' })).toThrow(/RELAY_CHANNEL_CHECK_MS: must be 0 \(off\) or at least 1000/);
    expect(() => loadConfig({ RELAY_CHANNEL_CHECK_MS: 'often' })).toThrow(/RELAY_CHANNEL_CHECK_MS: must be a number/);
  });

  describe('the schedule', () => {
    let e2e: E2eRelay;
    let sim: UpstreamSim;
    let checks: ChannelChecks | undefined;

    const scheduled = (options: ChannelChecksOptions) => {
      const { services, storage } = e2e.relay;
      checks = new ChannelChecks(
        { channels: storage.channels, registry: services.registry, health: services.health, upstream: services.upstream, logger: createLogger('silent') },
        options,
      );
      checks.start();
      return checks;
    };
    /** A channel whose only key the relay disabled after a 401; resolves to its id and the upstream calls so far. */
    const channelWithDisabledKey = async (): Promise<{ id: number; sent: number }> => {
      const { id } = await e2e.addChannel(sim.baseUrl, { keys: [SIM_KEY] });
      sim.failNext({ kind: 'status', status: 401 });
      expect((await e2e.postChat(hello)).status).toBe(502);
      return { id, sent: sim.requests.length };
    };

    beforeEach(async () => {
      e2e = await startE2eRelay();
      sim = await e2e.startSim();
    });
    afterEach(async () => {
      await checks?.close();
      checks = undefined;
      await e2e.close();
    });

    it('runs rounds by itself every interval, and stops on close', async () => {
      const { id } = await channelWithDisabledKey();
      const running = scheduled({ intervalMs: 50 });

      const deadline = Date.now() + 5_000;
      while ((await e2e.postChat(hello)).status !== 200 && Date.now() < deadline) await pause(25);
      expect((await e2e.postChat(hello)).status).toBe(200);
      expect(running.log.last(id)).toMatchObject({ ok: true, trigger: 'scheduled' });

      // A key the upstream never accepts: every round tests it again, until the checker is closed.
      await e2e.relay.storage.channels.update(id, { keys: [REFUSED_KEY] });
      e2e.relay.services.registry.invalidate();
      expect((await e2e.postChat(hello)).status).toBe(502);
      const beforeRounds = sim.requests.length;
      await pause(300);
      expect(sim.requests.length).toBeGreaterThanOrEqual(beforeRounds + 2);
      await running.close();
      // A test aborted by close may still reach the simulator a moment later: counted from after that.
      await pause(100);
      const sent = sim.requests.length;
      await pause(300);
      expect(sim.requests).toHaveLength(sent);
      expect(await running.runOnce()).toEqual({ channelsChecked: 0, circuitsClosed: 0, keysReEnabled: 0 });
    });

    it('with 0 never runs a round by itself; runOnce still checks', async () => {
      const { sent } = await channelWithDisabledKey();
      const off = scheduled({ intervalMs: 0 });

      await pause(300);
      expect(sim.requests).toHaveLength(sent);
      expect((await e2e.postChat(hello)).status).toBe(503);

      expect(await off.runOnce()).toMatchObject({ keysReEnabled: 1 });
      expect((await e2e.postChat(hello)).status).toBe(200);
    });

    it('the relay built without the setting (as in tests) schedules nothing', async () => {
      const { id, sent } = await channelWithDisabledKey();
      await pause(300);
      expect(sim.requests).toHaveLength(sent);
      expect(e2e.relay.services.channelChecks.log.last(id)).toBeNull();
    });
  });
});
