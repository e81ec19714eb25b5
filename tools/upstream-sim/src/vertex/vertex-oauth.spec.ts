import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import { createTestServiceAccount, mintTestToken, postTokenGrant, serviceAccountJwt } from './vertex-test-account';

// Google's OAuth 2.0 for service accounts: https://developers.google.com/identity/protocols/oauth2/service-account#httprest
describe("the Vertex token endpoint (Google's JWT-bearer grant)", () => {
  const account = createTestServiceAccount();
  const stranger = createTestServiceAccount('other@acme-prod.iam.gserviceaccount.com');
  let sim: UpstreamSim;

  beforeAll(async () => {
    sim = await startUpstreamSim({ vertexServiceAccounts: { [account.clientEmail]: account.publicKeyPem } });
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.reset());

  const refusal = async (response: Response) => ({ status: response.status, body: (await response.json()) as unknown });

  it('mints an hour-long bearer token for a JWT the service account signed, and counts it', async () => {
    const response = await postTokenGrant(sim.vertexTokenUri, serviceAccountJwt(account, sim.vertexTokenUri));
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({ access_token: expect.stringMatching(/^ya29\./), expires_in: 3599, token_type: 'Bearer' });
    expect(sim.vertexTokensMinted()).toBe(1);
  });

  it("accepts Google's own token URL as the audience, as google-auth-library signs it", async () => {
    const response = await postTokenGrant(sim.vertexTokenUri, serviceAccountJwt(account, 'https://oauth2.googleapis.com/token'));
    expect(response.status).toBe(200);
  });

  it('refuses a wrong signature, an unknown account, another audience, a long-lived JWT and a missing scope, as Google does', async () => {
    const wrongKey = serviceAccountJwt(account, sim.vertexTokenUri, {}, stranger.privateKeyPem);
    expect(await refusal(await postTokenGrant(sim.vertexTokenUri, wrongKey))).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } });
    const unknown = serviceAccountJwt(stranger, sim.vertexTokenUri);
    expect(await refusal(await postTokenGrant(sim.vertexTokenUri, unknown))).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid grant: account not found' } });
    const audience = await refusal(await postTokenGrant(sim.vertexTokenUri, serviceAccountJwt(account, 'https://example.com/token')));
    expect(audience).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringContaining('Failed audience check') } });
    const now = Math.floor(Date.now() / 1000);
    const longLived = await refusal(await postTokenGrant(sim.vertexTokenUri, serviceAccountJwt(account, sim.vertexTokenUri, { iat: now, exp: now + 7200 })));
    expect(longLived).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringContaining('short-lived token (60 minutes)') } });
    const expired = await refusal(await postTokenGrant(sim.vertexTokenUri, serviceAccountJwt(account, sim.vertexTokenUri, { iat: now - 4000, exp: now - 400 })));
    expect(expired).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const noScope = await refusal(await postTokenGrant(sim.vertexTokenUri, serviceAccountJwt(account, sim.vertexTokenUri, { scope: 'https://www.googleapis.com/auth/userinfo.email' })));
    expect(noScope).toEqual({ status: 400, body: { error: 'invalid_scope', error_description: 'Invalid OAuth scope or ID token audience provided.' } });
    expect(sim.vertexTokensMinted()).toBe(0);
  });

  it('refuses another grant type, and a body that is no form', async () => {
    const grant = await postTokenGrant(sim.vertexTokenUri, serviceAccountJwt(account, sim.vertexTokenUri), 'client_credentials');
    expect(await refusal(grant)).toEqual({ status: 400, body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: client_credentials' } });
    const json = await fetch(sim.vertexTokenUri, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(400);
  });

  it('knows accounts registered after the start, and keeps minted tokens valid across reset', async () => {
    sim.registerVertexServiceAccount(stranger.clientEmail, stranger.publicKeyPem);
    const token = await mintTestToken(sim.vertexTokenUri, stranger);
    sim.reset();
    expect(sim.vertexTokensMinted()).toBe(0);
    const list = await fetch(`${sim.vertexBaseUrl}/v1beta1/publishers/google/models`, { headers: { authorization: `Bearer ${token}` } });
    expect(list.status).toBe(200);
  });
});
