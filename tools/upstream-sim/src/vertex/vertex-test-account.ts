import { generateKeyPairSync, sign } from 'node:crypto';
import { CLOUD_PLATFORM_SCOPE, JWT_BEARER_GRANT } from './vertex-oauth';

/** A service account with a real key pair, for the specs: its email (project `acme-prod`), and both keys as PEM. */
export interface TestServiceAccount {
  clientEmail: string;
  privateKeyPem: string;
  publicKeyPem: string;
}

export function createTestServiceAccount(clientEmail = 'relay@acme-prod.iam.gserviceaccount.com'): TestServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    clientEmail,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

const segment = (json: unknown): string => Buffer.from(JSON.stringify(json)).toString('base64url');

/** The JWT a service account signs for Google's token endpoint (https://developers.google.com/identity/protocols/oauth2/service-account#authorizingrequests); `claims` override the defaults. */
export function serviceAccountJwt(account: TestServiceAccount, audience: string, claims: Record<string, unknown> = {}, privateKeyPem = account.privateKeyPem): string {
  const now = Math.floor(Date.now() / 1000);
  const header = segment({ alg: 'RS256', typ: 'JWT', kid: 'test-key' });
  const payload = segment({ iss: account.clientEmail, scope: CLOUD_PLATFORM_SCOPE, aud: audience, iat: now, exp: now + 3600, ...claims });
  const signature = sign('RSA-SHA256', Buffer.from(`${header}.${payload}`), privateKeyPem).toString('base64url');
  return `${header}.${payload}.${signature}`;
}

/** POST the JWT-bearer grant to `tokenUri`. */
export function postTokenGrant(tokenUri: string, assertion: string, grantType = JWT_BEARER_GRANT): Promise<Response> {
  return fetch(tokenUri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: grantType, assertion }).toString(),
  });
}

/** A bearer token the simulator minted for `account`. */
export async function mintTestToken(tokenUri: string, account: TestServiceAccount): Promise<string> {
  const response = await postTokenGrant(tokenUri, serviceAccountJwt(account, tokenUri));
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}
