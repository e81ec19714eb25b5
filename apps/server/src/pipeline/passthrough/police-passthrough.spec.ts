import { emptyCarriage, type PassthroughCarriage } from '@chat-relay/wire';
import { NOTHING_PASSES, type ChannelPassthroughRecord, type PriceRecord } from '../../storage/types';
import { policePassthrough, type PassthroughContext } from './police-passthrough';

const PRICE: PriceRecord = { model: 'gpt-4o-mini', input: 150_000, output: 600_000, cacheRead: null, cacheWrite: null, toolCalls: { web_search: 10_000 }, serviceTiers: { priority: 2 }, audioOutput: 80_000_000 };
const context = (fields: Partial<PassthroughContext> = {}): PassthroughContext => ({ allowList: ['gpt-4o-mini'], pricedModel: 'gpt-4o-mini', price: PRICE, owned: new Set(), ...fields });
const setting = (fields: Partial<ChannelPassthroughRecord> = {}): ChannelPassthroughRecord => ({ ...NOTHING_PASSES, ...fields });
const carrying = (fields: Partial<PassthroughCarriage>): PassthroughCarriage => ({ ...emptyCarriage(), ...fields });

const refusal = (carriage: PassthroughCarriage, channel = setting(), given = context()) => {
  const error = policePassthrough(carriage, channel, given);
  return error && { status: error.status, code: error.code, param: error.param };
};

describe('policePassthrough', () => {
  const webSearch = { kind: 'web_search' as const, name: 'web_search', param: 'tools[0]' };
  const image = { kind: 'image_generation' as const, name: 'image_generation', param: 'tools[1]', model: 'gpt-image-1' };

  it('lets plain tokens through any channel', () => {
    expect(refusal(emptyCarriage())).toBeUndefined();
  });

  it("a tool's own model outside the token's list is a 403 whatever the channel allows; inside it, or no list, passes on", () => {
    const all = setting({ hostedTools: ['image_generation', 'web_search'] });
    const tools = carrying({ tools: [webSearch, image] });
    expect(refusal(tools, all)).toEqual({ status: 403, code: 'model_not_allowed', param: 'tools[1].model' });
    expect(refusal(tools, all, context({ allowList: ['gpt-4o-mini', 'gpt-image-*'], price: { ...PRICE, toolCalls: { web_search: 1, image_generation: 1 } } }))).toBeUndefined();
    expect(refusal(tools, all, context({ allowList: null, price: { ...PRICE, toolCalls: { web_search: 1, image_generation: 1 } } }))).toBeUndefined();
  });

  it('a hosted tool must be let through by the channel, and priced per call when its kind is charged per call', () => {
    expect(refusal(carrying({ tools: [webSearch] }))).toEqual({ status: 400, code: 'hosted_tool_not_allowed', param: 'tools[0]' });
    expect(refusal(carrying({ tools: [webSearch] }), setting({ hostedTools: ['web_search'] }), context({ price: { ...PRICE, toolCalls: null } }))).toEqual({
      status: 400,
      code: 'hosted_tool_not_priced',
      param: 'tools[0]',
    });
    // Free on purpose is a price.
    expect(refusal(carrying({ tools: [webSearch] }), setting({ hostedTools: ['web_search'] }), context({ price: { ...PRICE, toolCalls: { web_search: 0 } } }))).toBeUndefined();
    // Tokens only: letting it through is enough.
    expect(refusal(carrying({ tools: [{ kind: 'mcp', name: 'mcp', param: 'tools[0]' }] }), setting({ hostedTools: ['mcp'] }), context({ price: undefined }))).toBeUndefined();
  });

  it('a tool type the relay does not know is refused, whatever the channel lets through', () => {
    const unknown = carrying({ unknownTools: [{ name: 'teleport', param: 'tools[0]' }] });
    expect(refusal(unknown, setting({ hostedTools: ['web_search'], upstreamObjects: true }))).toEqual({ status: 400, code: 'hosted_tool_unknown', param: 'tools[0]' });
  });

  it("upstream objects pass when this account created them through the relay, or when the channel lets them all through", () => {
    const objects = carrying({ objects: [{ kind: 'item', id: 'msg_1', param: 'input[0].id' }, { kind: 'vector_store', id: 'vs_1', param: 'tools[0].vector_store_ids[0]' }] });
    expect(refusal(objects)).toEqual({ status: 400, code: 'upstream_object_not_allowed', param: 'input[0].id' });
    expect(refusal(objects, setting(), context({ owned: new Set(['item:msg_1']) }))).toEqual({ status: 400, code: 'upstream_object_not_allowed', param: 'tools[0].vector_store_ids[0]' });
    expect(refusal(objects, setting({ upstreamObjects: true }))).toBeUndefined();
  });

  it('a premium tier and an audio answer: let through by the channel, and priced', () => {
    const priority = carrying({ serviceTier: { tier: 'priority', param: 'service_tier' } });
    expect(refusal(priority)).toEqual({ status: 400, code: 'service_tier_not_allowed', param: 'service_tier' });
    expect(refusal(priority, setting({ serviceTiers: ['priority'] }), context({ price: { ...PRICE, serviceTiers: { flex: 0.5 } } }))).toEqual({
      status: 400,
      code: 'service_tier_not_priced',
      param: 'service_tier',
    });
    expect(refusal(priority, setting({ serviceTiers: ['priority'] }))).toBeUndefined();
    const audio = carrying({ audioOutput: { param: 'modalities' } });
    expect(refusal(audio)).toEqual({ status: 400, code: 'audio_output_not_allowed', param: 'modalities' });
    expect(refusal(audio, setting({ audioOutput: true }), context({ price: { ...PRICE, audioOutput: null } }))).toEqual({ status: 400, code: 'audio_output_not_priced', param: 'modalities' });
    expect(refusal(audio, setting({ audioOutput: true }))).toBeUndefined();
  });
});
