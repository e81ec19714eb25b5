import { pickChannel } from './pick-channel';

const channel = (id: number, priority: number, weight = 1) => ({ id, priority, weight });
const always = () => true;

describe('pickChannel', () => {
  it('takes the highest priority tier only', () => {
    const candidates = [channel(1, 0), channel(2, 10), channel(3, 5)];
    for (let i = 0; i < 20; i++) expect(pickChannel(candidates, new Set(), always)?.id).toBe(2);
  });

  it('falls to the next tier when the top one was tried or is unavailable', () => {
    const candidates = [channel(1, 0), channel(2, 10), channel(3, 5)];
    expect(pickChannel(candidates, new Set([2]), always)?.id).toBe(3);
    expect(pickChannel(candidates, new Set(), (id) => id !== 2)?.id).toBe(3);
    expect(pickChannel(candidates, new Set([1, 2, 3]), always)).toBeUndefined();
  });

  it('draws inside a tier in proportion to weight', () => {
    const candidates = [channel(1, 0, 1), channel(2, 0, 3)];
    expect(pickChannel(candidates, new Set(), always, () => 0.0)?.id).toBe(1);
    expect(pickChannel(candidates, new Set(), always, () => 0.24)?.id).toBe(1);
    expect(pickChannel(candidates, new Set(), always, () => 0.26)?.id).toBe(2);
    expect(pickChannel(candidates, new Set(), always, () => 0.999)?.id).toBe(2);
  });

  it('spreads real random draws roughly by weight', () => {
    const candidates = [channel(1, 0, 1), channel(2, 0, 4)];
    const counts = new Map<number, number>();
    for (let i = 0; i < 5000; i++) {
      const id = pickChannel(candidates, new Set(), always)?.id ?? 0;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const share = (counts.get(2) ?? 0) / 5000;
    expect(share).toBeGreaterThan(0.75);
    expect(share).toBeLessThan(0.85);
  });

  describe("a session's preferred channel (prompt-cache affinity)", () => {
    const candidates = [channel(1, 0, 1), channel(2, 0, 3), channel(3, 0, 0), channel(4, -5, 1)];
    const unlucky = () => 0.999; // the weighted draw alone would take channel 2

    it('is picked whatever the draw while it is available in the top tier', () => {
      expect(pickChannel(candidates, new Set(), always, unlucky, 1)?.id).toBe(1);
    });

    it('is given up when tried, unavailable (circuit open) or of weight zero', () => {
      expect(pickChannel(candidates, new Set([1]), always, unlucky, 1)?.id).toBe(2);
      expect(pickChannel(candidates, new Set(), (id) => id !== 1, unlucky, 1)?.id).toBe(2);
      expect(pickChannel(candidates, new Set(), always, () => 0.0, 3)?.id).toBe(1);
      expect(pickChannel(candidates, new Set(), always, unlucky, 3)?.id).toBe(2);
    });

    it('does not outrank a higher priority tier that is available again', () => {
      expect(pickChannel(candidates, new Set(), always, unlucky, 4)?.id).toBe(2);
      expect(pickChannel(candidates, new Set([1, 2, 3]), always, unlucky, 4)?.id).toBe(4);
    });
  });
});
