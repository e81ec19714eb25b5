import { AZURE_API_VERSION_SUGGESTED, readCloud, regionHint, regionOfBedrockUrl, takesCloud, TYPE_FIELDS } from './channel-type-fields';

const form = (overrides: Partial<Parameters<typeof readCloud>[0]>) => ({ type: 'bedrock' as const, baseUrl: '', region: '', apiVersion: '', ...overrides });

describe('the three clouds’ own fields (issue 31)', () => {
  it('suggests the api-version of the contract (Azure’s latest GA) as the placeholder', () => {
    expect(TYPE_FIELDS.azure.apiVersion?.placeholder).toBe('2024-10-21');
    expect(TYPE_FIELDS.azure.apiVersion?.hint).toContain(AZURE_API_VERSION_SUGGESTED);
  });

  it('asks a region of bedrock and vertex, an api-version of azure, nothing of the others', () => {
    expect(Object.entries(TYPE_FIELDS).filter(([, fields]) => fields.region).map(([type, fields]) => [type, fields.region?.placeholder])).toEqual([
      ['bedrock', 'us-east-1'],
      ['vertex', 'global'],
    ]);
    expect(Object.entries(TYPE_FIELDS).filter(([, fields]) => fields.apiVersion).map(([type]) => type)).toEqual(['azure']);
    expect(['azure', 'bedrock', 'vertex', 'openai', 'tavily'].map((type) => takesCloud(type as 'azure'))).toEqual([true, true, true, false, false]);
    expect(Object.entries(TYPE_FIELDS).filter(([, fields]) => fields.keyFile).map(([type]) => type)).toEqual(['azure', 'vertex']);
  });

  it('offers each cloud’s own base URL as the placeholder', () => {
    expect(TYPE_FIELDS.azure.baseUrl.placeholder).toMatch(/^https:\/\/[a-z-]+\.openai\.azure\.com$/);
    expect(regionOfBedrockUrl(TYPE_FIELDS.bedrock.baseUrl.placeholder)).toBe('us-east-1');
    expect(TYPE_FIELDS.vertex.baseUrl.placeholder).toBe('https://aiplatform.googleapis.com');
  });

  // https://docs.aws.amazon.com/general/latest/gr/bedrock.html — runtime, FIPS and VPC endpoint host names.
  it('reads the region a Bedrock base URL names, as the server does', () => {
    expect(regionOfBedrockUrl('https://bedrock-runtime.eu-west-3.amazonaws.com/')).toBe('eu-west-3');
    expect(regionOfBedrockUrl('https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com')).toBe('us-gov-west-1');
    expect(regionOfBedrockUrl('https://vpce-0abc-1234.bedrock-runtime.us-east-1.vpce.amazonaws.com')).toBe('us-east-1');
    expect(regionOfBedrockUrl('https://bedrock-proxy.internal')).toBeUndefined();
    expect(regionOfBedrockUrl('not a url')).toBeUndefined();
  });

  it('says in the Region hint when a Bedrock base URL already names the region', () => {
    const named = 'https://bedrock-runtime.eu-west-3.amazonaws.com';
    expect(regionHint('bedrock', named, '')).toBe('The base URL names eu-west-3: leave empty to sign for it.');
    expect(regionHint('bedrock', named, 'us-east-1')).toBe('The base URL names eu-west-3; requests are signed for us-east-1, as typed here.');
    expect(regionHint('bedrock', 'https://proxy.internal', '')).toContain('Needed unless the base URL names it');
    expect(regionHint('vertex', 'https://aiplatform.googleapis.com', '')).toContain('Empty: global');
    expect(regionHint('azure', 'https://r.openai.azure.com', '')).toBeUndefined();
  });

  it('reads only the settings the type takes, and refuses a bedrock channel with no region anywhere', () => {
    expect(readCloud(form({ region: ' us-west-2 ', baseUrl: 'https://proxy.internal' }))).toEqual({ cloud: { region: 'us-west-2' } });
    expect(readCloud(form({ baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com' }))).toEqual({ cloud: {} });
    expect(readCloud(form({ baseUrl: 'https://proxy.internal' }))).toEqual({ error: expect.stringMatching(/^Region: a bedrock channel signs its requests for an AWS region/) });
    expect(readCloud(form({ type: 'azure', region: 'eastus', apiVersion: '2024-10-21' }))).toEqual({ cloud: { api_version: '2024-10-21' } });
    expect(readCloud(form({ type: 'vertex', region: 'us-east5', apiVersion: '2024-10-21' }))).toEqual({ cloud: { region: 'us-east5' } });
    expect(readCloud(form({ type: 'openai', region: 'x', apiVersion: 'y' }))).toEqual({ cloud: {} });
  });
});
