import { startE2eRelay, type E2eRelay } from './e2e-relay';

/** A cloud channel the admin API must refuse before it is saved, the field named and the key never echoed. */
describe('e2e: cloud channels refused at POST /api/channels (issue 31)', () => {
  let e2e: E2eRelay;

  const create = async (body: Record<string, unknown>) => {
    const response = await fetch(`${e2e.url}/api/channels`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cloud', models: ['m'], ...body }),
    });
    const text = await response.text();
    return { status: response.status, text, error: (JSON.parse(text) as { error: { param: string | null; message: string; code: string | null } }).error };
  };

  beforeAll(async () => {
    e2e = await startE2eRelay();
  });
  afterAll(() => e2e.close());

  it("a vertex channel whose key is not a service account's JSON key file: 400 on keys, the key not repeated", async () => {
    // https://cloud.google.com/iam/docs/keys-create-delete: the key file is JSON with type, project_id, client_email, private_key.
    const refused = await create({ type: 'vertex', base_url: 'https://aiplatform.googleapis.com', keys: ['AIzaSyNotAServiceAccount0123'] });
    expect(refused.status).toBe(400);
    expect(refused.error.param).toBe('keys');
    expect(refused.error.message).toContain('service account');
    expect(refused.text).not.toContain('AIzaSyNotAServiceAccount0123');

    const broken = await create({ type: 'vertex', base_url: 'https://aiplatform.googleapis.com', keys: ['{"type": "service_account", "private_key": "-----BEGIN'] });
    expect(broken.status).toBe(400);
    expect(broken.error.param).toBe('keys');
    expect(broken.text).not.toContain('BEGIN');
  });

  it('a bedrock channel with no region (set nor in its base URL): 400 on cloud.region', async () => {
    // https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html: the credential scope names the region.
    const refused = await create({ type: 'bedrock', base_url: 'http://127.0.0.1:9', keys: ['AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'] });
    expect(refused.status).toBe(400);
    expect(refused.error.param).toBe('cloud.region');
    expect(refused.error.message).toContain('region');
    expect(refused.text).not.toContain('wJalrXUtnFEMI');

    // The runtime host names one: accepted.
    const named = await create({ type: 'bedrock', base_url: 'https://bedrock-runtime.eu-west-1.amazonaws.com', keys: ['AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'] });
    expect(named.status).toBe(201);
    // No base URL at all: the region's runtime host (and Vertex's global host).
    const bare = await create({ type: 'bedrock', cloud: { region: 'ap-northeast-1' }, keys: ['ABSKQmVkcm9ja0FQSUtleQ=='] });
    expect([bare.status, (JSON.parse(bare.text) as { base_url: string }).base_url]).toEqual([201, 'https://bedrock-runtime.ap-northeast-1.amazonaws.com']);
    const noRegion = await create({ type: 'bedrock', keys: ['ABSKQmVkcm9ja0FQSUtleQ=='] });
    expect([noRegion.status, noRegion.error.param]).toEqual([400, 'cloud.region']);
  });

  it('an update that takes the region away is refused the same way', async () => {
    const created = await create({ type: 'bedrock', base_url: 'http://127.0.0.1:9', cloud: { region: 'us-east-1' }, keys: ['ABSKQmVkcm9ja0FQSUtleQ=='] });
    expect(created.status).toBe(201);
    const id = (JSON.parse(created.text) as { id: number }).id;
    const patched = await fetch(`${e2e.url}/api/channels/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cloud: {} }),
    });
    expect(patched.status).toBe(400);
    expect(((await patched.json()) as { error: { param: string } }).error.param).toBe('cloud.region');
  });
});
