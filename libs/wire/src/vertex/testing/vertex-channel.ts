import type { UpstreamTarget } from '../../hub/upstream-adapter';

/** A service account's key file as Google hands it out; the key is no real key (these specs sign nothing). */
export const SERVICE_ACCOUNT_KEY = JSON.stringify({
  type: 'service_account',
  project_id: 'acme-prod',
  private_key_id: 'abc123',
  private_key: '-----BEGIN PRIVATE KEY-----\nnot-a-key\n-----END PRIVATE KEY-----\n',
  client_email: 'relay@acme-prod.iam.gserviceaccount.com',
  token_uri: 'https://oauth2.googleapis.com/token',
});

/** The catalogue's base URL in Claude's usual region. */
export const US_EAST5: UpstreamTarget = { baseUrl: 'https://aiplatform.googleapis.com', cloud: { region: 'us-east5' } };

/** The catalogue's base URL, no region: the global endpoint. */
export const GLOBAL: UpstreamTarget = { baseUrl: 'https://aiplatform.googleapis.com' };
