import { channelFixture, keyStatus, serviceAccountKeyFile } from '../../testing/fixtures';
import {
  CHANNEL_TYPES,
  channelFormFrom,
  emptyChannelForm,
  endpointsOfType,
  parseModelMapping,
  splitList,
  toChannelCreate,
  toChannelUpdate,
  withType,
  type ChannelFormValues,
} from './channel-form';

const filled = () => ({
  ...emptyChannelForm(),
  name: 'openai-main',
  baseUrl: 'https://api.openai.com/v1/',
  keys: 'sk-one\n\n  sk-two,with-comma  \n',
  models: 'gpt-4o, gpt-4o-mini\ngpt-4.1*',
});

describe('channel form → API body', () => {
  it('splits keys by line only, models by comma or line, and normalises the base URL', () => {
    expect(splitList('a, b\n\nc,')).toEqual(['a', 'b', 'c']);
    const outcome = toChannelCreate(filled());
    expect(outcome).toEqual({
      ok: true,
      body: expect.objectContaining({
        base_url: 'https://api.openai.com/v1',
        keys: ['sk-one', 'sk-two,with-comma'],
        models: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1*'],
        endpoints: null,
        priority: 0,
        weight: 1,
      }),
    });
  });

  it('reads the model mapping lines and names the line that is not one', () => {
    expect(parseModelMapping('gpt-4o = my-gpt\n\nfast=gpt-4o-mini')).toEqual({ mapping: { 'gpt-4o': 'my-gpt', fast: 'gpt-4o-mini' } });
    expect(parseModelMapping('ok=x\nbroken')).toEqual({ error: expect.stringContaining('line 2') });
    expect(toChannelCreate({ ...filled(), modelMapping: '=x' })).toEqual({ ok: false, errors: [expect.stringContaining('Model mapping (line 1)')] });
  });

  it('says in the form’s words what the contract refuses', () => {
    const outcome = toChannelCreate({ ...emptyChannelForm(), baseUrl: 'ftp://x', weight: '0', priority: 'high' });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors).toEqual(['Priority: must be a whole number']);
    const second = toChannelCreate({ ...emptyChannelForm(), baseUrl: 'ftp://x', weight: '0' });
    if (second.ok) throw new Error('expected errors');
    expect(second.errors).toEqual(expect.arrayContaining([expect.stringMatching(/^Name: /), expect.stringMatching(/^Base URL: /), expect.stringMatching(/^Keys: /), expect.stringMatching(/^Weight: /)]));
  });

  it('sends the chosen endpoints instead of the type’s defaults when asked', () => {
    const outcome = toChannelCreate({ ...filled(), useDefaultEndpoints: false, endpoints: ['chat', 'rerank'] });
    expect(outcome.ok && outcome.body.endpoints).toEqual(['chat', 'rerank']);
  });
});

describe('channel edit → PATCH body', () => {
  const channel = channelFixture({ model_mapping: { fast: 'gpt-4o-mini' }, priority: 5 });

  it('starts with empty keys and sends only what changed', () => {
    const form = channelFormFrom(channel);
    expect(form.keys).toBe('');
    expect(toChannelUpdate({ ...form, priority: '7', enabled: false }, channel)).toEqual({ ok: true, body: { priority: 7, enabled: false } });
  });

  it('sends keys only when some were typed, replacing the current ones', () => {
    const form = channelFormFrom(channel);
    expect(toChannelUpdate({ ...form, keys: 'sk-new\n' }, channel)).toEqual({ ok: true, body: { keys: ['sk-new'] } });
  });

  it('says when nothing changed instead of sending an empty PATCH', () => {
    expect(toChannelUpdate(channelFormFrom(channel), channel)).toEqual({ ok: false, errors: ['Nothing changed.'] });
  });

  it('sends null endpoints to go back to the type’s defaults', () => {
    const custom = channelFixture({ endpoints: ['chat'], endpoints_default: false });
    expect(toChannelUpdate({ ...channelFormFrom(custom), useDefaultEndpoints: true }, custom)).toEqual({ ok: true, body: { endpoints: null } });
  });
});

describe('channel types and what they can serve (issue 17)', () => {
  it('offers every type with a hint, the new ones saying what they are', () => {
    expect(Object.keys(CHANNEL_TYPES)).toEqual(['openai', 'anthropic', 'gemini', 'azure', 'bedrock', 'vertex', 'suno', 'tavily', 'searxng']);
    expect(CHANNEL_TYPES.suno.hint).toBe("Suno-style music API (new-api's /suno routes)");
    expect(CHANNEL_TYPES.tavily.hint).toBe('Tavily search API, base URL https://api.tavily.com');
    expect(CHANNEL_TYPES.searxng.hint).toBe('your SearXNG, JSON format enabled');
  });

  it('offers only the endpoints a type can serve', () => {
    expect(endpointsOfType('tavily')).toEqual(['search']);
    expect(endpointsOfType('suno')).toEqual(['music']);
    expect(endpointsOfType('anthropic')).toEqual(['chat', 'completions']);
    expect(endpointsOfType('openai')).toEqual(['chat', 'completions', 'embeddings', 'rerank', 'moderations', 'images', 'audio_speech', 'audio_transcriptions', 'videos']);
  });

  it('keeps the chosen endpoints the new type can serve when the type changes, else its defaults', () => {
    const chosen: ChannelFormValues = { ...filled(), useDefaultEndpoints: false, endpoints: ['chat', 'rerank'] };
    expect(withType(chosen, 'anthropic')).toMatchObject({ type: 'anthropic', endpoints: ['chat'], useDefaultEndpoints: false });
    expect(withType(chosen, 'tavily')).toMatchObject({ type: 'tavily', endpoints: ['search'] });
    expect(withType(filled(), 'suno')).toMatchObject({ type: 'suno', endpoints: ['music'], useDefaultEndpoints: true });
  });

  it('says in the form’s words when the endpoints do not fit the type', () => {
    const outcome = toChannelCreate({ ...filled(), type: 'tavily', useDefaultEndpoints: false, endpoints: ['search', 'chat'] });
    expect(outcome).toEqual({ ok: false, errors: ['Endpoints: a tavily channel can serve only search; chat is not among them'] });
    const search = toChannelCreate({ ...filled(), type: 'searxng', baseUrl: 'http://searx.local' });
    expect(search.ok && search.body).toMatchObject({ type: 'searxng', endpoints: null });
  });
});

describe('channel form: what passes through (issue 26)', () => {
  it('sends nothing beyond tokens by default, and what is ticked or typed otherwise', () => {
    const plain = toChannelCreate(filled());
    expect(plain.ok && plain.body.passthrough).toEqual({ hosted_tools: [], service_tiers: [], audio_output: false, upstream_objects: false });
    const chosen = toChannelCreate({ ...filled(), hostedTools: ['web_search', 'code_execution'], serviceTiers: 'priority, flex', audioOutput: true });
    expect(chosen.ok && chosen.body.passthrough).toEqual({ hosted_tools: ['web_search', 'code_execution'], service_tiers: ['priority', 'flex'], audio_output: true, upstream_objects: false });
  });

  it('an edit shows the channel’s setting and sends it only when changed; a bad tier name is an error naming the field', () => {
    const channel = channelFixture({ passthrough: { hosted_tools: ['mcp', 'web_search'], service_tiers: ['priority'], audio_output: false, upstream_objects: true } });
    const form = channelFormFrom(channel);
    expect(form).toMatchObject({ hostedTools: ['web_search', 'mcp'], serviceTiers: 'priority', upstreamObjects: true });
    expect(toChannelUpdate({ ...form, name: 'renamed' }, channel)).toEqual({ ok: true, body: { name: 'renamed' } });
    const opened = toChannelUpdate({ ...form, upstreamObjects: false }, channel);
    expect(opened.ok && opened.body.passthrough).toEqual({ hosted_tools: ['web_search', 'mcp'], service_tiers: ['priority'], audio_output: false, upstream_objects: false });
    const bad = toChannelUpdate({ ...form, serviceTiers: 'Priority!' }, channel);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.errors.join(' ')).toContain('Passthrough');
  });
});

describe('channel form: the three clouds (issue 31)', () => {
  const vertexForm = (): ChannelFormValues => ({
    ...withType(emptyChannelForm(), 'vertex'),
    name: 'vertex-main',
    baseUrl: 'https://aiplatform.googleapis.com',
    keys: serviceAccountKeyFile(),
    models: 'gemini-2.5-pro, claude-sonnet-4-5@20250929',
    region: 'us-east5',
  });

  it('sends a multi-line service account key file as ONE key, and the region as cloud', () => {
    const outcome = toChannelCreate(vertexForm());
    if (!outcome.ok) throw new Error(outcome.errors.join('; '));
    expect(outcome.body.keys).toEqual([JSON.stringify(JSON.parse(serviceAccountKeyFile()))]);
    expect(outcome.body.cloud).toEqual({ region: 'us-east5' });
  });

  it('sends cloud {} for a cloud left to its defaults, and none at all for the other types', () => {
    const global = toChannelCreate({ ...vertexForm(), region: '' });
    expect(global.ok && global.body.cloud).toEqual({});
    const azure = toChannelCreate({ ...withType(filled(), 'azure'), baseUrl: 'https://acme.openai.azure.com', apiVersion: '2024-10-21' });
    expect(azure.ok && azure.body).toMatchObject({ type: 'azure', cloud: { api_version: '2024-10-21' } });
    const openai = toChannelCreate({ ...filled(), region: 'us-east-1' });
    expect(openai.ok && 'cloud' in openai.body).toBe(false);
  });

  it('names the Region or API version field when the contract refuses what was typed', () => {
    expect(toChannelCreate({ ...vertexForm(), region: 'US East 5' })).toEqual({ ok: false, errors: [expect.stringMatching(/^Region: a region is lower-case letters/)] });
    const azure = { ...withType(filled(), 'azure'), baseUrl: 'https://acme.openai.azure.com', apiVersion: 'October' };
    expect(toChannelCreate(azure)).toEqual({ ok: false, errors: [expect.stringMatching(/^API version: an api-version is a date/)] });
    const bedrock = { ...withType(filled(), 'bedrock'), baseUrl: 'https://bedrock-proxy.internal', keys: 'AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI' };
    expect(toChannelCreate(bedrock)).toEqual({ ok: false, errors: [expect.stringMatching(/^Region: a bedrock channel signs its requests for an AWS region/)] });
    expect(toChannelCreate({ ...bedrock, baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com' })).toMatchObject({ ok: true, body: { cloud: {} } });
  });

  it('clears the cloud fields when the type changes, from one cloud to another too', () => {
    const vertex = vertexForm();
    expect(withType(vertex, 'bedrock')).toMatchObject({ type: 'bedrock', region: '', apiVersion: '' });
    expect(withType({ ...withType(filled(), 'azure'), apiVersion: '2024-10-21' }, 'openai')).toMatchObject({ type: 'openai', apiVersion: '' });
    expect(withType(vertex, 'vertex')).toBe(vertex);
  });

  it('an edit shows the channel’s cloud settings, sends cloud only when changed, and {} when the type leaves the clouds', () => {
    const channel = channelFixture({
      type: 'azure',
      base_url: 'https://acme.openai.azure.com',
      cloud: { api_version: '2024-10-21' },
      key_status: [keyStatus({ hint: 'Entra app c-1 (tenant t-1)' })],
    });
    const form = channelFormFrom(channel);
    expect(form).toMatchObject({ region: '', apiVersion: '2024-10-21', keys: '' });
    expect(toChannelUpdate({ ...form, priority: '2' }, channel)).toEqual({ ok: true, body: { priority: 2 } });
    expect(toChannelUpdate({ ...form, apiVersion: '' }, channel)).toEqual({ ok: true, body: { cloud: {} } });
    expect(toChannelUpdate({ ...form, apiVersion: '2025-04-01-preview' }, channel)).toEqual({ ok: true, body: { cloud: { api_version: '2025-04-01-preview' } } });
    expect(toChannelUpdate(withType(form, 'openai'), channel)).toEqual({ ok: true, body: { type: 'openai', cloud: {} } });
  });

  it('an edit sends a pasted key file as one key, replacing the current keys', () => {
    const channel = channelFixture({ type: 'vertex', base_url: 'https://aiplatform.googleapis.com', cloud: { region: 'global' } });
    const update = toChannelUpdate({ ...channelFormFrom(channel), keys: `${serviceAccountKeyFile()}\n${serviceAccountKeyFile('b@acme-prod.iam.gserviceaccount.com')}` }, channel);
    expect(update.ok && update.body.keys?.map((key) => (JSON.parse(key) as { client_email: string }).client_email)).toEqual([
      'relay@acme-prod.iam.gserviceaccount.com',
      'b@acme-prod.iam.gserviceaccount.com',
    ]);
  });
});
