import { CHANGE_TOPICS } from '../../core/change-feed';
import { CallCounter, ClusterFixture, sleep } from '../../../test/cluster/redis/testing/cluster-fixture';
import { describeWithRedis, eventually, plainClient } from '../../../test/cluster/redis/testing/redis-test-env';

describeWithRedis('RedisChangeFeed', (url) => {
  let fixture: ClusterFixture;
  beforeEach(() => {
    fixture = new ClusterFixture(url);
  });
  afterEach(() => fixture.cleanup());

  it("a publish runs this instance's listener at once and the other's within a second, once each", async () => {
    const [a, b] = [await fixture.open('a'), await fixture.open('b')];
    const calls = new CallCounter();
    a.changes.subscribe('tokens', calls.listener('a:tokens'));
    b.changes.subscribe('tokens', calls.listener('b:tokens'));
    b.changes.subscribe('channels', calls.listener('b:channels'));

    a.changes.publish('tokens');
    expect(calls.count('a:tokens')).toBe(1);
    const took = await eventually(() => calls.count('b:tokens') === 1, 1_000, "b's listener");
    expect(took).toBeLessThan(1_000);
    // A's own message came back to A too, and was skipped; other topics were not touched.
    await sleep(200);
    expect(calls.count('a:tokens')).toBe(1);
    expect(calls.count('b:tokens')).toBe(1);
    expect(calls.count('b:channels')).toBe(0);
  });

  it('each topic reaches its own listeners, in both directions', async () => {
    const [a, b] = [await fixture.open('a'), await fixture.open('b')];
    const calls = new CallCounter();
    for (const topic of CHANGE_TOPICS) {
      a.changes.subscribe(topic, calls.listener(`a:${topic}`));
      b.changes.subscribe(topic, calls.listener(`b:${topic}`));
    }
    b.changes.publish('prices');
    a.changes.publish('channels');
    await eventually(() => calls.count('a:prices') === 1 && calls.count('b:channels') === 1, 1_000, 'both messages');
    await sleep(100);
    // Each side hears its own message and the other's, on that topic only.
    const heard = (topic: string) => (topic === 'prices' || topic === 'channels' ? [1, 1] : [0, 0]);
    expect(CHANGE_TOPICS.flatMap((topic) => [calls.count(`a:${topic}`), calls.count(`b:${topic}`)])).toEqual(CHANGE_TOPICS.flatMap(heard));
  });

  it('an unsubscribed listener is not called', async () => {
    const [a, b] = [await fixture.open('a'), await fixture.open('b')];
    const calls = new CallCounter();
    const unsubscribe = b.changes.subscribe('tokens', calls.listener('gone'));
    b.changes.subscribe('tokens', calls.listener('kept'));
    unsubscribe();
    a.changes.publish('tokens');
    await eventually(() => calls.count('kept') === 1, 1_000, 'the kept listener');
    expect(calls.count('gone')).toBe(0);
  });

  it('messages it does not understand are ignored; a listener that throws breaks nothing', async () => {
    const b = await fixture.open('b');
    const calls = new CallCounter();
    b.changes.subscribe('tokens', () => {
      throw new Error('listener bug');
    });
    b.changes.subscribe('prices', calls.listener('prices'));
    const client = await plainClient(url);
    try {
      await client.publish(`${fixture.prefix}changes`, 'not json');
      await client.publish(`${fixture.prefix}changes`, JSON.stringify({ origin: 'x', topic: 'nonsense' }));
      await client.publish(`${fixture.prefix}changes`, JSON.stringify({ origin: 'x', topic: 'tokens' }));
      await client.publish(`${fixture.prefix}changes`, JSON.stringify({ origin: 'x', topic: 'prices' }));
    } finally {
      await client.quit();
    }
    await eventually(() => calls.count('prices') === 1, 1_000, 'the prices message');
    expect(fixture.log.lines.some((line) => line.includes('change listener failed'))).toBe(true);
    expect(fixture.log.lines.some((line) => line.includes('change message not understood'))).toBe(true);
  });

  it('every topic fires each refreshMs when no message came', async () => {
    const a = await fixture.open('a', { refreshMs: 250 });
    const calls = new CallCounter();
    for (const topic of CHANGE_TOPICS) a.changes.subscribe(topic, calls.listener(topic));
    await sleep(100);
    expect(CHANGE_TOPICS.map((topic) => calls.count(topic))).toEqual(CHANGE_TOPICS.map(() => 0));
    await eventually(() => CHANGE_TOPICS.every((topic) => calls.count(topic) >= 2), 1_500, 'two refreshes');
  });

  it('after the connection was cut and is back, every topic fires (messages may have been lost)', async () => {
    const proxy = await fixture.proxy();
    const [a, b] = [await fixture.open('a'), await fixture.open('b', { proxy })];
    const calls = new CallCounter();
    for (const topic of CHANGE_TOPICS) b.changes.subscribe(topic, calls.listener(topic));

    proxy.cut();
    await sleep(300);
    a.changes.publish('tokens'); // lost for b
    b.changes.publish('prices'); // fails at once: Redis is away; local listeners still run
    expect(calls.count('prices')).toBe(1);
    await sleep(300);
    expect(CHANGE_TOPICS.map((topic) => calls.count(topic))).toEqual(CHANGE_TOPICS.map((topic) => (topic === 'prices' ? 1 : 0)));

    proxy.restore();
    await eventually(() => CHANGE_TOPICS.every((topic) => calls.count(topic) >= 1) && calls.count('prices') >= 2, 5_000, 'all topics after reconnect');
    // Subscribed again: messages reach b within a second once more.
    const tokensBefore = calls.count('tokens');
    a.changes.publish('tokens');
    await eventually(() => calls.count('tokens') === tokensBefore + 1, 1_000, 'a message after reconnect');
  }, 15_000);

  it('a subscriber that went silent (blackholed) is noticed, reconnected, and every topic fires', async () => {
    const proxy = await fixture.proxy();
    const [a, b] = [await fixture.open('a'), await fixture.open('b', { proxy, subscriberCheckMs: 200 })];
    const calls = new CallCounter();
    for (const topic of CHANGE_TOPICS) b.changes.subscribe(topic, calls.listener(topic));
    proxy.blackhole();
    await sleep(1_000);
    expect(fixture.log.lines.some((line) => line.includes('no answer to PING'))).toBe(true);
    expect(CHANGE_TOPICS.map((topic) => calls.count(topic))).toEqual(CHANGE_TOPICS.map(() => 0));
    proxy.restore();
    await eventually(() => CHANGE_TOPICS.every((topic) => calls.count(topic) >= 1), 6_000, 'all topics after reconnect');
    const before = calls.count('channels');
    a.changes.publish('channels');
    await eventually(() => calls.count('channels') === before + 1, 1_000, 'a message after reconnect');
  }, 15_000);
});
