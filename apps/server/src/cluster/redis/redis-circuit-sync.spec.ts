import { ChannelHealth } from '../../channels/channel-health';
import type { CircuitSync } from '../circuit-sync';
import { RedisCircuitSync } from './redis-circuit-sync';
import { closeConnection, createRedisConnection } from './redis-connection';
import { RedisSubscriber } from './redis-subscriber';
import { ClusterFixture, sleep } from '../../../test/cluster/redis/testing/cluster-fixture';
import { describeWithRedis, eventually, plainClient, viaPort } from '../../../test/cluster/redis/testing/redis-test-env';

const COOL_DOWN_MS = 5_000;

/** A breaker on a real clock that opens on four failures from two callers. */
const healthOn = (circuits: CircuitSync) =>
  new ChannelHealth({ windowMs: 10_000, minFailures: 4, perCallerCap: 2, failureRate: 0.5, coolDownMs: COOL_DOWN_MS }, Date.now, circuits);

const trip = (health: ChannelHealth, channelId: number) => {
  for (const caller of ['token:1', 'token:1', 'token:2', 'token:2']) health.recordFailure(channelId, caller);
};

describeWithRedis('RedisCircuitSync', (url) => {
  let fixture: ClusterFixture;
  beforeEach(() => {
    fixture = new ClusterFixture(url);
  });
  afterEach(() => fixture.cleanup());

  it("a circuit opened on one instance is open on the other's ChannelHealth within a second; a close likewise", async () => {
    const [a, b] = [await fixture.open('a'), await fixture.open('b')];
    const [healthA, healthB] = [healthOn(a.circuits), healthOn(b.circuits)];
    trip(healthA, 1);
    expect(healthA.isAvailable(1)).toBe(false);
    expect(await eventually(() => !healthB.isAvailable(1), 1_000, 'open on b')).toBeLessThan(1_000);
    expect(healthB.isAvailable(2)).toBe(true);
    // B knows until when: its own trial comes after the same cool-down.
    const openUntil = Date.parse(healthB.snapshot(1).openUntil ?? '');
    expect(openUntil).toBeGreaterThan(Date.now() + COOL_DOWN_MS - 1_500);

    healthA.recordSuccess(1); // a trial that worked closes it
    await eventually(() => healthB.isAvailable(1), 1_000, 'closed on b');
    expect(healthB.snapshot(1).state).toBe('closed');
  });

  it('an instance does not hear back its own announcements', async () => {
    const a = await fixture.open('a');
    const heard: Array<[number, number | null]> = [];
    a.circuits.onRemote((channelId, openUntil) => heard.push([channelId, openUntil]));
    a.circuits.announce(3, Date.now() + 1_000);
    a.circuits.announce(3, null);
    const b = await fixture.open('b');
    b.circuits.announce(4, null);
    await eventually(() => heard.length === 1, 1_000, "b's announcement");
    await sleep(100);
    expect(heard).toEqual([[4, null]]);
  });

  it('openCircuits: what is open now, as announced by any instance, after the fact', async () => {
    const a = await fixture.open('a');
    const healthA = healthOn(a.circuits);
    trip(healthA, 7);
    trip(healthA, 8);
    healthA.forget(8); // edited: closed everywhere
    const late = await fixture.open('late');
    let open = await late.circuits.openCircuits();
    for (let tries = 0; open.size !== 1 && tries < 20; tries++) {
      await sleep(50);
      open = await late.circuits.openCircuits();
    }
    expect([...open.keys()]).toEqual([7]);
    expect(open.get(7)).toBeGreaterThan(Date.now());

    const healthLate = healthOn(late.circuits);
    expect(healthLate.isAvailable(7)).toBe(true);
    await healthLate.refresh();
    expect(healthLate.isAvailable(7)).toBe(false);
    expect(healthLate.isAvailable(8)).toBe(true);
  });

  it('openCircuits leaves out circuits past their cool-down and forgets long-expired ones', async () => {
    const a = await fixture.open('a');
    const client = await plainClient(url);
    const key = `${fixture.prefix}circuits`;
    try {
      const now = Date.now();
      await client.hset(key, { '1': String(now + 60_000), '2': String(now - 1_000), '3': String(now - 2 * 3_600_000), junk: 'x' });
      expect([...(await a.circuits.openCircuits())]).toEqual([[1, now + 60_000]]);
      await sleep(50);
      expect((await client.hkeys(key)).sort()).toEqual(['1', '2']);
    } finally {
      await client.quit();
    }
  });

  it('announcements missed while disconnected are taken in once the subscriber is back', async () => {
    const proxy = await fixture.proxy();
    const [a, b] = [await fixture.open('a'), await fixture.open('b', { proxy })];
    const [healthA, healthB] = [healthOn(a.circuits), healthOn(b.circuits)];
    proxy.cut();
    await sleep(200);
    trip(healthA, 5);
    trip(healthB, 6); // b's own announcement fails: Redis is away; b keeps its circuit locally
    expect(healthB.isAvailable(6)).toBe(false);
    await sleep(300);
    expect(healthB.isAvailable(5)).toBe(true);
    proxy.restore();
    await eventually(() => !healthB.isAvailable(5), 5_000, 'the missed open on b');
    expect(healthA.isAvailable(6)).toBe(true);
  }, 15_000);

  it('the subscriber back before the commands connection: the missed open is read once commands are back too', async () => {
    const a = await fixture.open('a');
    const [commandsProxy, subscriberProxy] = [await fixture.proxy(), await fixture.proxy()];
    const connection = (name: string, port: number) => createRedisConnection({ url: viaPort(url, port), name, logger: fixture.log.logger });
    const commands = connection('commands', commandsProxy.port);
    const subscriberConnection = connection('subscriber', subscriberProxy.port);
    const subscriber = new RedisSubscriber(subscriberConnection, fixture.log.logger, 60_000);
    const syncB = new RedisCircuitSync({ redis: commands, subscriber, keyPrefix: fixture.prefix, instanceId: 'b', logger: fixture.log.logger });
    const [healthA, healthB] = [healthOn(a.circuits), healthOn(syncB)];
    const resubscribed = () => fixture.log.lines.filter((line) => line.includes('subscribed again')).length;
    try {
      await subscriber.subscribed;
      await eventually(() => commands.status === 'ready', 2_000, 'commands connected');
      commandsProxy.cut();
      subscriberProxy.cut();
      await sleep(200);
      trip(healthA, 5);
      subscriberProxy.restore();
      await eventually(() => resubscribed() === 1, 5_000, 'the subscriber back');
      await sleep(300);
      expect(commands.status).not.toBe('ready');
      expect(healthB.isAvailable(5)).toBe(true); // not read yet: the commands connection is still away
      commandsProxy.restore();
      await eventually(() => !healthB.isAvailable(5), 5_000, 'the missed open on b, once commands are back');
    } finally {
      subscriber.close();
      await Promise.all([closeConnection(commands), closeConnection(subscriberConnection)]);
    }
  }, 15_000);

  it('a message it does not understand is ignored', async () => {
    const b = await fixture.open('b');
    const healthB = healthOn(b.circuits);
    const client = await plainClient(url);
    try {
      await client.publish(`${fixture.prefix}circuits`, '{"origin":"x","channel_id":"one","open_until":1}');
      await client.publish(`${fixture.prefix}circuits`, 'nonsense');
      await client.publish(`${fixture.prefix}circuits`, JSON.stringify({ origin: 'x', channel_id: 9, open_until: Date.now() + 60_000 }));
    } finally {
      await client.quit();
    }
    await eventually(() => !healthB.isAvailable(9), 1_000, 'the valid message');
    expect(fixture.log.lines.filter((line) => line.includes('circuit message not understood'))).toHaveLength(1);
  });
});
