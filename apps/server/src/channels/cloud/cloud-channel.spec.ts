import { RelayError } from '@chat-relay/wire';
import { regionOfBedrockUrl } from '@chat-relay/contract';
import { assertCloudChannelFits, regionOf } from './cloud-channel';

const SERVICE_ACCOUNT = JSON.stringify({ type: 'service_account', project_id: 'p', client_email: 'a@p.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n' });

const refusal = (channel: Parameters<typeof assertCloudChannelFits>[0]): { param: string | undefined; message: string } | undefined => {
  try {
    assertCloudChannelFits(channel);
    return undefined;
  } catch (error) {
    if (!(error instanceof RelayError)) throw error;
    return { param: error.param ?? undefined, message: error.message };
  }
};

describe('cloud channels', () => {
  it('reads the region of a Bedrock runtime URL, a FIPS one and a VPC endpoint, and nothing of another host', () => {
    expect(regionOfBedrockUrl('https://bedrock-runtime.eu-central-1.amazonaws.com')).toBe('eu-central-1');
    expect(regionOfBedrockUrl('https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com')).toBe('us-gov-west-1');
    expect(regionOfBedrockUrl('https://vpce-0abc-12345.bedrock-runtime.ap-southeast-2.vpce.amazonaws.com')).toBe('ap-southeast-2');
    expect(regionOfBedrockUrl('http://127.0.0.1:4000')).toBeUndefined();
    expect(regionOf('bedrock', 'http://127.0.0.1:4000', { region: 'us-west-2' })).toBe('us-west-2');
    expect(regionOf('vertex', 'https://aiplatform.googleapis.com', undefined)).toBe('global');
  });

  it('takes each cloud credential in the form its console hands out', () => {
    expect(refusal({ type: 'bedrock', baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com', keys: ['AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', 'ABSKQmVkcm9ja0FQSUtleS1leGFtcGxl'], cloud: undefined })).toBeUndefined();
    expect(refusal({ type: 'vertex', baseUrl: 'https://aiplatform.googleapis.com', keys: [SERVICE_ACCOUNT], cloud: { region: 'us-east5' } })).toBeUndefined();
    expect(refusal({ type: 'azure', baseUrl: 'https://r.openai.azure.com', keys: ['0123456789abcdef', '{"tenant_id":"t","client_id":"c","client_secret":"s"}'], cloud: { apiVersion: '2024-10-21' } })).toBeUndefined();
  });

  it('refuses what a cloud cannot use, naming the field and never the key', () => {
    expect(refusal({ type: 'vertex', baseUrl: 'https://aiplatform.googleapis.com', keys: ['AIzaSy-not-a-service-account'], cloud: undefined })).toEqual({
      param: 'keys',
      message: "Key 0 is not a vertex credential: a vertex channel's key is a service account's JSON key file (type, project_id, client_email, private_key).",
    });
    expect(refusal({ type: 'azure', baseUrl: 'https://r.openai.azure.com', keys: ['k', '{"tenant_id":"t","client_secret":"leak-me"}'], cloud: undefined })?.message).not.toContain('leak-me');
    expect(refusal({ type: 'bedrock', baseUrl: 'http://127.0.0.1:4000', keys: ['AKIAIOSFODNN7EXAMPLE:secret'], cloud: undefined })?.param).toBe('cloud.region');
    expect(refusal({ type: 'vertex', baseUrl: 'https://aiplatform.googleapis.com', keys: [SERVICE_ACCOUNT], cloud: { apiVersion: '2024-10-21' } })?.param).toBe('cloud.api_version');
    expect(refusal({ type: 'azure', baseUrl: 'https://r.openai.azure.com', keys: ['k'], cloud: { region: 'eastus' } })?.param).toBe('cloud.region');
    expect(refusal({ type: 'openai', baseUrl: 'https://api.openai.com/v1', keys: ['sk-1'], cloud: { region: 'us-east-1' } })?.param).toBe('cloud');
  });
});
