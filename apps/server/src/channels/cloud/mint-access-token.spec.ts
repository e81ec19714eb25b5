import { createVerify, generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CloudKey } from '@chat-relay/wire';
import { CredentialRefused, mintAccessToken } from './mint-access-token';

/** A token endpoint on 127.0.0.1 that records each form it gets and answers what the test says. */
async function tokenEndpoint(answer: (form: URLSearchParams, path: string) => { status: number; body: unknown }) {
  const forms: Array<{ path: string; form: URLSearchParams; contentType: string | undefined }> = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (piece: Buffer) => (text += piece.toString('utf8')));
    req.on('end', () => {
      const form = new URLSearchParams(text);
      forms.push({ path: req.url ?? '', form, contentType: req.headers['content-type'] });
      const { status, body } = answer(form, req.url ?? '');
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, forms, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });

describe('mintAccessToken', () => {
  it("exchanges a service account's RS256 assertion for Google's token (RFC 7523), signed with its private key", async () => {
    const endpoint = await tokenEndpoint(() => ({ status: 200, body: { access_token: 'ya29.minted', expires_in: 3599, token_type: 'Bearer' } }));
    try {
      const account: CloudKey = { kind: 'google-service-account', projectId: 'p', clientEmail: 'relay@p.iam.gserviceaccount.com', privateKey, privateKeyId: 'kid-1', tokenUri: `${endpoint.url}/token` };
      const minted = await mintAccessToken(account, () => 1_700_000_000_000);
      expect(minted).toEqual({ token: 'ya29.minted', expiresAt: 1_700_000_000_000 + 3_599_000 });
      const [sent] = endpoint.forms;
      expect(sent?.path).toBe('/token');
      expect(sent?.contentType).toBe('application/x-www-form-urlencoded');
      expect(sent?.form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
      const [header = '', claims = '', signature = ''] = (sent?.form.get('assertion') ?? '').split('.');
      expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'kid-1' });
      expect(JSON.parse(Buffer.from(claims, 'base64url').toString())).toEqual({
        iss: 'relay@p.iam.gserviceaccount.com',
        scope: 'https://www.googleapis.com/auth/cloud-platform',
        aud: `${endpoint.url}/token`,
        iat: 1_700_000_000,
        exp: 1_700_003_600,
      });
      expect(createVerify('RSA-SHA256').update(`${header}.${claims}`).verify(publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
    } finally {
      await endpoint.close();
    }
  });

  it("asks Entra for a client-credentials token with the Cognitive Services scope, at the tenant's endpoint", async () => {
    const endpoint = await tokenEndpoint(() => ({ status: 200, body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: 'eyJ.entra' } }));
    try {
      const minted = await mintAccessToken({ kind: 'azure-entra', tenantId: 'contoso', clientId: 'app-1', clientSecret: 's3cret', authorityHost: endpoint.url }, () => 0);
      expect(minted).toEqual({ token: 'eyJ.entra', expiresAt: 3_599_000 });
      const [sent] = endpoint.forms;
      expect(sent?.path).toBe('/contoso/oauth2/v2.0/token');
      expect(Object.fromEntries(sent?.form ?? [])).toEqual({ grant_type: 'client_credentials', client_id: 'app-1', client_secret: 's3cret', scope: 'https://cognitiveservices.azure.com/.default' });
    } finally {
      await endpoint.close();
    }
  });

  it("says a refused credential is the credential's fault (the key's), naming what the endpoint said and never the secret", async () => {
    const endpoint = await tokenEndpoint(() => ({ status: 401, body: { error: 'invalid_client', error_description: "AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app 'app-1'." } }));
    try {
      const minting = mintAccessToken({ kind: 'azure-entra', tenantId: 't', clientId: 'app-1', clientSecret: 'wrong-secret-value', authorityHost: endpoint.url });
      await expect(minting).rejects.toBeInstanceOf(CredentialRefused);
      await expect(minting).rejects.toThrow(/invalid_client: AADSTS7000215/);
      await expect(minting).rejects.not.toThrow(/wrong-secret-value/);
    } finally {
      await endpoint.close();
    }
  });

  it('fails (not refused: the key stays) when the endpoint errs or answers no token', async () => {
    const endpoint = await tokenEndpoint((_form, path) => (path.startsWith('/bad') ? { status: 200, body: { token_type: 'Bearer' } } : { status: 503, body: { error: 'temporarily_unavailable' } }));
    try {
      const entra = (authorityHost: string) => mintAccessToken({ kind: 'azure-entra', tenantId: 't', clientId: 'c', clientSecret: 's', authorityHost });
      await expect(entra(endpoint.url)).rejects.toThrow(/failed \(temporarily_unavailable\)/);
      await expect(entra(endpoint.url)).rejects.not.toBeInstanceOf(CredentialRefused);
      await expect(entra(`${endpoint.url}/bad`)).rejects.toThrow(/without an access token/);
    } finally {
      await endpoint.close();
    }
  });
});
