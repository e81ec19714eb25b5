import { CHANNEL_TYPE_CATALOGUE, CHANNEL_TYPE_ENDPOINTS, ChannelTypeSchema, DEFAULT_CHANNEL_ENDPOINTS } from './channel-type-catalogue';
import { ENDPOINTS } from './endpoint.schema';

describe('the channel-type catalogue', () => {
  it('is where the type enum comes from, in the order its rows are written', () => {
    expect(ChannelTypeSchema.options).toEqual(['openai', 'anthropic', 'gemini', 'azure', 'bedrock', 'vertex', 'suno', 'tavily', 'searxng']);
    expect(ChannelTypeSchema.options).toEqual(Object.keys(CHANNEL_TYPE_CATALOGUE));
  });

  it('is where both endpoint tables come from: one column each', () => {
    for (const type of ChannelTypeSchema.options) {
      expect(CHANNEL_TYPE_ENDPOINTS[type]).toBe(CHANNEL_TYPE_CATALOGUE[type].endpoints);
      expect(DEFAULT_CHANNEL_ENDPOINTS[type]).toBe(CHANNEL_TYPE_CATALOGUE[type].defaultEndpoints);
    }
  });

  it.each(ChannelTypeSchema.options)('%s serves by default only what it can serve, at least one endpoint, in endpoint order', (type) => {
    const row = CHANNEL_TYPE_CATALOGUE[type];
    expect(row.defaultEndpoints.length).toBeGreaterThan(0);
    for (const endpoint of row.defaultEndpoints) expect(row.endpoints).toContain(endpoint);
    expect(row.endpoints).toEqual(ENDPOINTS.filter((endpoint) => (row.endpoints as readonly string[]).includes(endpoint)));
    expect(row.label).not.toBe('');
    expect(row.hint).not.toBe('');
  });
});
