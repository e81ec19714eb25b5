import { LocalChangeFeed } from './change-feed';

describe('LocalChangeFeed', () => {
  it('fires the listeners of the published topic at once, and only those', () => {
    const feed = new LocalChangeFeed();
    const heard: string[] = [];
    feed.subscribe('tokens', () => heard.push('tokens'));
    feed.subscribe('channels', () => heard.push('channels'));
    feed.publish('tokens');
    expect(heard).toEqual(['tokens']);
  });

  it('stops firing a listener once unsubscribed', () => {
    const feed = new LocalChangeFeed();
    let calls = 0;
    const unsubscribe = feed.subscribe('prices', () => calls++);
    feed.publish('prices');
    unsubscribe();
    feed.publish('prices');
    expect(calls).toBe(1);
  });

  it('with a refresh period, fires every topic on the timer until closed', async () => {
    const feed = new LocalChangeFeed(30);
    const heard = new Set<string>();
    for (const topic of ['tokens', 'channels', 'prices'] as const) feed.subscribe(topic, () => heard.add(topic));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect([...heard].sort()).toEqual(['channels', 'prices', 'tokens']);
    await feed.close();
    heard.clear();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(heard.size).toBe(0);
  });
});
