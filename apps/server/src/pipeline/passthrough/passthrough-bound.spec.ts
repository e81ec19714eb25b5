import type { PassthroughCarriage } from '@chat-relay/wire';
import { passthroughBound, type PassthroughPlan } from './plan-passthrough';

const carriage = (kinds: string[] = [], tier?: string): PassthroughCarriage =>
  ({ tools: kinds.map((kind) => ({ kind })), objects: [], ...(tier ? { serviceTier: { tier, param: 'service_tier' } } : {}) }) as unknown as PassthroughCarriage;
const plan = (hub: PassthroughCarriage, native?: PassthroughCarriage): PassthroughPlan => ({ hub, native }) as unknown as PassthroughPlan;

describe('passthroughBound', () => {
  it('is undefined for a request that asks no tier and offers no hosted tool, native or not', () => {
    expect(passthroughBound(plan(carriage()))).toBeUndefined();
    expect(passthroughBound(plan(carriage(), carriage()))).toBeUndefined();
  });

  it("takes the native carriage's tier when it asks one, else the hub's", () => {
    expect(passthroughBound(plan(carriage([], 'flex'), carriage([], 'priority')))).toEqual({ serviceTier: 'priority', toolKinds: [] });
    expect(passthroughBound(plan(carriage([], 'flex'), carriage()))).toEqual({ serviceTier: 'flex', toolKinds: [] });
    expect(passthroughBound(plan(carriage([], 'flex')))).toEqual({ serviceTier: 'flex', toolKinds: [] });
  });

  it('lists each hosted tool kind offered either way once, the native ones first', () => {
    expect(passthroughBound(plan(carriage(['web_search', 'file_search']), carriage(['code_interpreter', 'web_search'])))).toEqual({
      serviceTier: undefined,
      toolKinds: ['code_interpreter', 'web_search', 'file_search'],
    });
    expect(passthroughBound(plan(carriage(['web_search'])))).toEqual({ serviceTier: undefined, toolKinds: ['web_search'] });
  });
});
