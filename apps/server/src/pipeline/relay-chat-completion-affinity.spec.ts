import { chatRequest, useChatRelayHarness } from '../../test/testing/chat-relay-harness';
import { channelKeyDigest } from '../channels/channel-registry';
import { SessionAffinity } from '../channels/session-affinity';

/** relayChatCompletion with prompt-cache affinity (issue 29): `token:1`, the harness's model, session `s`. */
describe('relayChatCompletion: prompt-cache affinity', () => {
  const h = useChatRelayHarness();
  const scope = 'token:1|gpt-4o|s';
  let affinity: SessionAffinity;
  beforeEach(() => {
    affinity = new SessionAffinity({ ttlMs: 60_000 });
    h.deps.affinity = affinity;
  });
  const pinOf = () => {
    const held = affinity.lookup(scope);
    if (held instanceof Promise) throw new Error('a memory-only affinity answers at once');
    return held && { channelId: held.channelId, keyDigest: held.keyDigest };
  };

  it('with one candidate channel, does not even name the session (nothing to choose: no cost)', async () => {
    await h.addChannel();
    const session = jest.fn(() => 's');
    await h.relay({ request: chatRequest('hi'), session });
    expect(session).not.toHaveBeenCalled();
    expect(pinOf()).toBeUndefined();
  });

  it('sends every request of a session to the channel and key that served its first, and remembers them', async () => {
    await h.addChannel({ name: 'one' });
    await h.addChannel({ name: 'two', baseUrl: h.sim.chatOnlyBaseUrl });
    for (let turn = 0; turn < 12; turn++) await h.relay({ request: chatRequest('hi'), session: () => 's' });
    expect(new Set(h.calls()).size).toBe(1);
    const key = (h.calls()[0] ?? '').split(' ')[1] ?? '';
    expect(pinOf()?.keyDigest).toBe(channelKeyDigest(key));
  });

  it('a pinned channel that fails is tried first, then forgotten: the retry that answers is the new pin', async () => {
    const dead = await h.deadChannel({ name: 'dead' });
    const working = await h.addChannel({ name: 'working', keys: ['sk-sim-two'] });
    affinity.served(scope, undefined, { channelId: dead.id, keyDigest: channelKeyDigest('sk-sim-one') });
    const { trace } = await h.relay({ request: chatRequest('hi'), session: () => 's' });
    expect(trace.attempts).toBe(2);
    expect(pinOf()).toEqual({ channelId: working.id, keyDigest: channelKeyDigest('sk-sim-two') });
  });

  it('a pinned channel whose circuit is open is passed over, and the session moves', async () => {
    const open = await h.addChannel({ name: 'open', keys: ['sk-sim-one'] });
    const other = await h.addChannel({ name: 'other', keys: ['sk-sim-three'], baseUrl: h.sim.chatOnlyBaseUrl });
    affinity.served(scope, undefined, { channelId: open.id, keyDigest: channelKeyDigest('sk-sim-one') });
    jest.spyOn(h.deps.health, 'isAvailable').mockImplementation((id) => id !== open.id);
    await h.relay({ request: chatRequest('hi'), session: () => 's' });
    expect(h.calls()).toEqual(['/chat-only/v1/chat/completions sk-sim-three']);
    expect(pinOf()?.channelId).toBe(other.id);
  });

  it('a pin to a channel that answered the request with an error about the request is kept', async () => {
    const pinned = await h.addChannel({ name: 'pinned', keys: ['sk-sim-one'] });
    await h.addChannel({ name: 'other', baseUrl: h.sim.chatOnlyBaseUrl });
    affinity.served(scope, undefined, { channelId: pinned.id, keyDigest: channelKeyDigest('sk-sim-one') });
    h.sim.failNext({ kind: 'status', status: 400 });
    await expect(h.relay({ request: chatRequest('hi'), session: () => 's' })).rejects.toMatchObject({ status: 400 });
    expect(pinOf()?.channelId).toBe(pinned.id);
  });
});
