import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { upstreamChats } from './gizmo-assistants';

interface Tenant {
  id: number;
  accountKey: string;
  token: string;
}

describe('issue 10 defect 13: a private assistant id of another account is indistinguishable from a free one (SPEC §5)', () => {
  let e2e: E2eRelayWithSim;
  let alice: Tenant;
  let bob: Tenant;
  let carol: Tenant;

  const call = async (key: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${e2e.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Record<string, any> };
  };
  const tenant = async (name: string): Promise<Tenant> => {
    const account = await call(e2e.relay.adminKey, 'POST', '/api/accounts', { name });
    const accountKey = account.body['access_key'] as string;
    const token = await call(accountKey, 'POST', '/api/tokens', { name });
    return { id: account.body['id'] as number, accountKey, token: token.body['key'] as string };
  };
  /** The system prompt the upstream got when `who` chatted with `gpt-4o-gizmo-<id>`. */
  const instructionsSeen = async (who: Tenant, id: string): Promise<unknown> => {
    const before = upstreamChats(e2e.sim.requests).length;
    const answer = await fetch(`${e2e.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: `gpt-4o-gizmo-${id}`, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(answer.status).toBe(200);
    return upstreamChats(e2e.sim.requests)[before]?.messages[0]?.['content'];
  };

  beforeEach(async () => {
    e2e = await startRelayWithSim();
    alice = await tenant('alice');
    bob = await tenant('bob');
    carol = await tenant('carol');
  });
  afterEach(() => e2e.close());

  it("creating an id another account holds privately succeeds as a free one does, and each chats with its own", async () => {
    expect((await call(alice.accountKey, 'POST', '/api/assistants', { id: 'g-secret', name: 'A', instructions: 'Alice speaking.' })).status).toBe(201);

    const taken = await call(bob.accountKey, 'GET', '/api/assistants/g-secret');
    const free = await call(bob.accountKey, 'GET', '/api/assistants/g-free');
    expect([taken.status, free.status]).toEqual([404, 404]);
    expect(taken.body['error']['code']).toBe(free.body['error']['code']);
    const created = await call(bob.accountKey, 'POST', '/api/assistants', { id: 'g-secret', name: 'B', instructions: 'Bob speaking.' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'g-secret', account_id: bob.id });

    expect(await instructionsSeen(alice, 'g-secret')).toBe('Alice speaking.');
    expect(await instructionsSeen(bob, 'g-secret')).toBe('Bob speaking.');
    const unknown = await fetch(`${e2e.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${carol.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-gizmo-g-secret', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(unknown.status).toBe(404);
    // Making Bob's public (the admin publishes: issue 26) reveals nothing of the other's private one; each still gets its own.
    expect((await call(e2e.relay.adminKey, 'PATCH', `/api/assistants/g-secret?account_id=${bob.id}`, { visibility: 'public' })).status).toBe(200);
    expect(await instructionsSeen(alice, 'g-secret')).toBe('Alice speaking.');
    expect(await instructionsSeen(carol, 'g-secret')).toBe('Bob speaking.');
  });

  it('a public id is unique among public ones and against what its owner sees; the admin publishing takes it', async () => {
    const admin = e2e.relay.adminKey;
    const publish = (owner: Tenant, id: string) => call(admin, 'PATCH', `/api/assistants/${id}?account_id=${owner.id}`, { visibility: 'public' });
    expect((await call(bob.accountKey, 'POST', '/api/assistants', { id: 'g-pub', name: 'P' })).status).toBe(201);
    expect((await publish(bob, 'g-pub')).status).toBe(200);
    // Accounts publish nothing (issue 26), and a private id under a public one is refused as before.
    expect((await call(alice.accountKey, 'POST', '/api/assistants', { id: 'g-pub', name: 'X', visibility: 'public' })).status).toBe(403);
    expect((await call(alice.accountKey, 'POST', '/api/assistants', { id: 'g-pub', name: 'X' })).status).toBe(409);
    expect((await call(bob.accountKey, 'POST', '/api/assistants', { id: 'g-pub', name: 'again' })).status).toBe(409);

    expect((await call(alice.accountKey, 'POST', '/api/assistants', { id: 'g-two', name: 'A2', instructions: 'Alice two.' })).status).toBe(201);
    expect((await call(carol.accountKey, 'POST', '/api/assistants', { id: 'g-two', name: 'C2', instructions: 'Carol two.' })).status).toBe(201);
    expect((await publish(alice, 'g-two')).status).toBe(200);
    expect(await instructionsSeen(bob, 'g-two')).toBe('Alice two.');
    // The admin publishing Carol's takes the id: Alice's becomes hers alone again.
    expect((await publish(carol, 'g-two')).status).toBe(200);
    expect((await call(alice.accountKey, 'GET', '/api/assistants/g-two')).body).toMatchObject({ visibility: 'private' });
    expect(await instructionsSeen(bob, 'g-two')).toBe('Carol two.');
    expect(await instructionsSeen(alice, 'g-two')).toBe('Alice two.');
  });

  it('the admin names the owner with ?account_id= when several accounts hold the id', async () => {
    await call(alice.accountKey, 'POST', '/api/assistants', { id: 'g-same', name: 'A' });
    await call(bob.accountKey, 'POST', '/api/assistants', { id: 'g-same', name: 'B' });
    const admin = e2e.relay.adminKey;

    const ambiguous = await call(admin, 'GET', '/api/assistants/g-same');
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body['error']).toMatchObject({ code: 'ambiguous_assistant_id', param: 'account_id' });
    expect((await call(admin, 'GET', `/api/assistants/g-same?account_id=${bob.id}`)).body).toMatchObject({ name: 'B', account_id: bob.id });
    expect((await call(admin, 'PATCH', `/api/assistants/g-same?account_id=${alice.id}`, { name: 'A2' })).body).toMatchObject({ name: 'A2' });
    expect((await call(admin, 'DELETE', `/api/assistants/g-same?account_id=${alice.id}`)).status).toBe(204);
    expect((await call(admin, 'GET', '/api/assistants/g-same')).body).toMatchObject({ name: 'B' });
    // An account key may name only its own account.
    expect((await call(alice.accountKey, 'GET', `/api/assistants/g-same?account_id=${bob.id}`)).status).toBe(403);
  });
});
