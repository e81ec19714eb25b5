import { ChannelHealth } from '../channels/channel-health';
import type { CircuitSync } from '../cluster/circuit-sync';

describe('circuit changes told for webhooks', () => {
  it('tells an opening and a closing made here, and nothing another instance announced', async () => {
    let now = 0;
    let remote: ((channelId: number, openUntil: number | null) => void) | undefined;
    const sync: CircuitSync = { announce: () => undefined, onRemote: (listener) => (remote = listener), openCircuits: async () => new Map() };
    const health = new ChannelHealth({ minFailures: 2, perCallerCap: 2, coolDownMs: 100 }, () => now, sync);
    const told: Array<[number, string]> = [];
    health.onCircuitChange((channelId, change) => told.push([channelId, change]));

    health.recordFailure(1, null);
    health.recordFailure(1, null);
    health.recordFailure(1, null); // already open: not told again
    remote?.(2, 1_000);
    remote?.(2, null);
    now = 200;
    health.recordSuccess(1);
    expect(told).toEqual([
      [1, 'opened'],
      [1, 'closed'],
    ]);
  });
});
