import { invalidRequest } from '@chat-relay/wire';
import { chatRequest, HARNESS_KEYS, readStream, useChatRelayHarness } from '../../test/testing/chat-relay-harness';
import { channelKeyDigest } from '../channels/channel-registry';
import type { ServedBy } from './relay-chat-completion';

/** relayChatCompletion against the simulator (see useChatRelayHarness): what issue 13 added for stored responses. */
describe('relayChatCompletion: pins and onServed (issue 13)', () => {
  const h = useChatRelayHarness();

  describe('pin', () => {
    it('sends to the pinned channel only, every time, whatever the priorities', async () => {
      await h.addChannel({ name: 'preferred', priority: 10 });
      const pinned = await h.addChannel({ name: 'pinned', baseUrl: h.sim.chatOnlyBaseUrl });
      const gone = invalidRequest('gone', 'previous_response_id');
      for (let index = 0; index < 4; index++) await h.relay({ request: chatRequest('hi'), pin: { channelId: pinned.id, keyDigest: null, gone } });
      expect(h.calls().map((call) => call.split(' ')[0])).toEqual(Array(4).fill('/chat-only/v1/chat/completions'));
    });

    it('sends with the key whose sha256 digest is pinned, and rotates when no digest is given', async () => {
      const channel = await h.addChannel();
      const gone = invalidRequest('gone');
      for (let index = 0; index < 3; index++) await h.relay({ request: chatRequest('hi'), pin: { channelId: channel.id, keyDigest: channelKeyDigest('sk-sim-three'), gone } });
      expect(h.calls()).toEqual(Array(3).fill('/v1/chat/completions sk-sim-three'));

      h.sim.reset();
      for (let index = 0; index < 3; index++) await h.relay({ request: chatRequest('hi'), pin: { channelId: channel.id, keyDigest: null, gone } });
      expect(new Set(h.calls().map((call) => call.split(' ')[1]))).toEqual(new Set(HARNESS_KEYS));
    });

    it("falls back to the channel's rotation when the pinned key is no longer among its active keys", async () => {
      const channel = await h.addChannel({ keys: ['sk-sim-one'] });
      await h.relay({ request: chatRequest('hi'), pin: { channelId: channel.id, keyDigest: channelKeyDigest('sk-sim-removed'), gone: invalidRequest('gone') } });
      expect(h.calls()).toEqual(['/v1/chat/completions sk-sim-one']);
    });

    it.each([
      ['deleted', (id: number) => h.storage.channels.delete(id)],
      ['disabled', (id: number) => h.storage.channels.update(id, { enabled: false })],
      ['no longer serving the model', (id: number) => h.storage.channels.update(id, { models: ['gpt-4o-mini'] })],
    ])('throws the given error, sending nothing, when the pinned channel is %s', async (_name, change) => {
      await h.addChannel({ name: 'other' });
      const pinned = await h.addChannel({ name: 'pinned' });
      await change(pinned.id);
      h.deps.registry.invalidate();
      const gone = invalidRequest('Previous response is kept by a channel that is gone.', 'previous_response_id', 'previous_response_unavailable');
      await expect(h.relay({ request: chatRequest('hi'), pin: { channelId: pinned.id, keyDigest: null, gone } })).rejects.toBe(gone);
      expect(h.calls()).toEqual([]);
    });

    it('throws model_not_found rather than the pin error when no channel serves the model at all', async () => {
      const pinned = await h.addChannel();
      const gone = invalidRequest('gone');
      await expect(h.relay({ request: chatRequest('hi', { model: 'gpt-unknown' }), pin: { channelId: pinned.id, keyDigest: null, gone } })).rejects.toMatchObject({ code: 'model_not_found' });
    });
  });

  describe('onServed', () => {
    it('is told once, with the channel, the key and native: false, for an answer bridged or plain', async () => {
      const channel = await h.addChannel({ keys: ['sk-sim-two'] });
      const onServed = jest.fn<void, [ServedBy]>();
      const { result } = await h.relay({ request: chatRequest('hi'), onServed });
      expect(result).toMatchObject({ kind: 'json', body: { choices: [{ message: { content: 'You said: hi' } }] } });
      expect(onServed).toHaveBeenCalledTimes(1);
      const served = onServed.mock.calls[0]?.[0];
      expect({ channel: served?.channel.id, key: served?.key, native: served?.native }).toEqual({ channel: channel.id, key: 'sk-sim-two', native: false });
    });

    it('is told of the attempt that answered, never of those that failed before it', async () => {
      await h.deadChannel({ priority: 10 });
      const working = await h.addChannel({ keys: ['sk-sim-one'] });
      const onServed = jest.fn<void, [ServedBy]>();
      const { trace } = await h.relay({ request: chatRequest('hi'), onServed });
      expect(trace.attempts).toBe(2);
      expect(onServed.mock.calls.map(([served]) => served.channel.id)).toEqual([working.id]);
    });

    it('is never told when every attempt fails, nor for an upstream error answer', async () => {
      const dead = await h.deadChannel();
      const onServed = jest.fn();
      await expect(h.relay({ request: chatRequest('hi'), onServed })).rejects.toMatchObject({ status: 502 });
      await h.storage.channels.delete(dead.id);
      await h.addChannel({ name: 'refusing' });
      h.deps.registry.invalidate();
      await expect(h.relay({ request: chatRequest('[sim:fault=status:400] hi'), onServed })).rejects.toMatchObject({ status: 400 });
      expect(onServed).not.toHaveBeenCalled();
    });

    it('is told once a stream has its first bytes, before the caller reads it', async () => {
      const channel = await h.addChannel();
      const onServed = jest.fn<void, [ServedBy]>();
      const { result, trace } = await h.relay({ request: chatRequest('hi', { stream: true }), onServed });
      expect(onServed).toHaveBeenCalledTimes(1);
      expect(onServed.mock.calls[0]?.[0].channel.id).toBe(channel.id);
      if (result.kind !== 'stream') throw new Error('expected a stream');
      expect(await readStream(result.body)).toContain('data: [DONE]');
      await trace.settled;
      expect(onServed).toHaveBeenCalledTimes(1);
    });
  });
});
