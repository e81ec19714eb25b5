import { ChannelCheckSchema, ChannelCreateSchema, ChannelModelSyncSchema, ChannelSchema, ChannelUpdateSchema, defaultCloudBaseUrl, endpointsBeyondType } from './channel.schema';

const channel = {
  name: 'openai-main',
  type: 'openai',
  base_url: 'https://api.openai.com/v1',
  keys: ['sk-test-1'],
  models: ['gpt-4o*'],
};

/** The distinct paths of a failed parse's issues (one field may fail two rules). */
function issuePaths(result: { success: boolean; error?: { issues: { path: (string | number)[] }[] } }) {
  expect(result.success).toBe(false);
  const paths = new Set(result.error?.issues.map((issue) => JSON.stringify(issue.path)));
  return [...paths].map((path) => JSON.parse(path));
}

describe('ChannelCreateSchema', () => {
  it('accepts a minimal channel and leaves the optional fields unset (the server applies defaults)', () => {
    expect(ChannelCreateSchema.parse(channel)).toEqual(channel);
  });

  it('accepts every optional field', () => {
    const full = {
      ...channel,
      model_mapping: { 'gpt-4o': 'gpt-4o-2024-08-06' },
      priority: 10,
      weight: 3,
      enabled: false,
      timeouts: { first_byte_ms: 30_000 },
      responses_api: 'bridged',
    };
    expect(ChannelCreateSchema.parse(full)).toEqual(full);
  });

  it('lets only bedrock (with its region) and vertex leave base_url out: their clouds\' hosts are known', () => {
    const { base_url: _left, ...without } = channel;
    const paths = (body: unknown) => (ChannelCreateSchema.safeParse(body).error?.issues ?? []).map((issue) => issue.path.join('.'));
    expect(paths(without)).toEqual(['base_url']);
    expect(paths({ ...without, type: 'bedrock' })).toEqual(['cloud.region']);
    expect(paths({ ...without, type: 'bedrock', cloud: { region: 'eu-west-3' } })).toEqual([]);
    expect(paths({ ...without, type: 'vertex' })).toEqual([]);
    expect(paths({ ...without, type: 'azure' })).toEqual(['base_url']);
    expect(defaultCloudBaseUrl('bedrock', { region: 'eu-west-3' })).toBe('https://bedrock-runtime.eu-west-3.amazonaws.com');
    expect(defaultCloudBaseUrl('vertex', { region: 'us-east5' })).toBe('https://aiplatform.googleapis.com');
    expect(defaultCloudBaseUrl('openai', undefined)).toBeUndefined();
  });

  it('rejects unknown fields (strict), naming them', () => {
    const result = ChannelCreateSchema.safeParse({ ...channel, api_key: 'sk-x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['api_key'] });
  });

  it('rejects unknown fields inside timeouts', () => {
    expect(issuePaths(ChannelCreateSchema.safeParse({ ...channel, timeouts: { total_ms: 1 } }))).toEqual([['timeouts']]);
  });

  it.each([
    ['no keys', { keys: [] }, ['keys']],
    ['an empty key', { keys: ['sk-ok', ''] }, ['keys', 1]],
    ['no models', { models: [] }, ['models']],
    ['a blank model pattern', { models: ['  '] }, ['models', 0]],
    ['a blank name', { name: '   ' }, ['name']],
    ['an ftp base_url', { base_url: 'ftp://files.example.com/v1' }, ['base_url']],
    ['a base_url that is not a URL', { base_url: 'api.openai.com/v1' }, ['base_url']],
    ['weight 0', { weight: 0 }, ['weight']],
    ['a fractional priority', { priority: 1.5 }, ['priority']],
    ['an unknown type', { type: 'anthropic-ish' }, ['type']],
    ['an unknown responses_api', { responses_api: 'sometimes' }, ['responses_api']],
    ['a responses_api of another case', { responses_api: 'Native' }, ['responses_api']],
  ])('rejects %s', (_name, change, path) => {
    expect(issuePaths(ChannelCreateSchema.safeParse({ ...channel, ...change }))).toEqual([path]);
  });

  it.each([
    ['https://api.openai.com/v1/', 'https://api.openai.com/v1'],
    ['http://localhost:8080/v1///', 'http://localhost:8080/v1'],
    ['https://api.openai.com/v1', 'https://api.openai.com/v1'],
  ])('trims the trailing slash of %s', (baseUrl, expected) => {
    expect(ChannelCreateSchema.parse({ ...channel, base_url: baseUrl }).base_url).toBe(expected);
  });

  it('trims the name', () => {
    expect(ChannelCreateSchema.parse({ ...channel, name: '  main  ' }).name).toBe('main');
  });
});

describe('passthrough', () => {
  it('takes part of the setting on create and update (the rest is the default or as it was), and refuses what it does not know', () => {
    expect(ChannelCreateSchema.parse({ ...channel, passthrough: { hosted_tools: ['web_search', 'code_execution'] } }).passthrough).toEqual({
      hosted_tools: ['web_search', 'code_execution'],
    });
    expect(ChannelUpdateSchema.parse({ passthrough: { upstream_objects: true } })).toEqual({ passthrough: { upstream_objects: true } });
    expect(issuePaths(ChannelCreateSchema.safeParse({ ...channel, passthrough: { hosted_tools: ['teleport'] } }))).toEqual([['passthrough', 'hosted_tools', 0]]);
    expect(issuePaths(ChannelCreateSchema.safeParse({ ...channel, passthrough: { hosted_tools: ['mcp', 'mcp'] } }))).toEqual([['passthrough', 'hosted_tools']]);
    expect(issuePaths(ChannelCreateSchema.safeParse({ ...channel, passthrough: { service_tiers: ['Priority!'] } }))).toEqual([['passthrough', 'service_tiers', 0]]);
    expect(issuePaths(ChannelCreateSchema.safeParse({ ...channel, passthrough: { audio: true } }))).toEqual([['passthrough']]);
  });
});

describe('ChannelUpdateSchema', () => {
  it('rejects {}: an update must change something', () => {
    const result = ChannelUpdateSchema.safeParse({});
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('must change at least one field');
  });

  it('accepts a single field and applies the same rules as create', () => {
    expect(ChannelUpdateSchema.parse({ enabled: false })).toEqual({ enabled: false });
    expect(ChannelUpdateSchema.parse({ base_url: 'https://example.com/v1/' })).toEqual({ base_url: 'https://example.com/v1' });
    expect(issuePaths(ChannelUpdateSchema.safeParse({ weight: 0 }))).toEqual([['weight']]);
  });

  it('rejects unknown fields (strict)', () => {
    expect(ChannelUpdateSchema.safeParse({ enabled: true, id: 3 }).success).toBe(false);
  });

  it.each(['auto', 'native', 'bridged'])('accepts responses_api %s alone', (value) => {
    expect(ChannelUpdateSchema.parse({ responses_api: value })).toEqual({ responses_api: value });
  });

  it('rejects a responses_api outside auto, native, bridged, naming it', () => {
    expect(issuePaths(ChannelUpdateSchema.safeParse({ responses_api: null }))).toEqual([['responses_api']]);
  });
});

describe('endpoints within what the type can serve (CHANNEL_TYPE_ENDPOINTS)', () => {
  const tavily = { ...channel, type: 'tavily', base_url: 'https://api.tavily.com', models: ['tavily-search'] };

  it('refuses chat on a search channel at create, naming endpoints and what the type serves', () => {
    const result = ChannelCreateSchema.safeParse({ ...tavily, endpoints: ['search', 'chat'] });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['endpoints'], message: 'a tavily channel can serve only search; chat is not among them' }),
    ]);
  });

  it('refuses music on an openai channel, and search on a suno one', () => {
    expect(issuePaths(ChannelCreateSchema.safeParse({ ...channel, endpoints: ['chat', 'music', 'search'] }))).toEqual([['endpoints']]);
    expect(endpointsBeyondType('openai', ['chat', 'music', 'search'])).toBe(
      'an openai channel can serve only chat, completions, embeddings, rerank, moderations, images, audio_speech, audio_transcriptions, videos; music, search are not among them',
    );
    expect(endpointsBeyondType('suno', ['search'])).toMatch(/^a suno channel can serve only music;/);
  });

  it('takes what the type can serve, and null or no endpoints (the type’s defaults)', () => {
    expect(ChannelCreateSchema.parse({ ...tavily, endpoints: ['search'] }).endpoints).toEqual(['search']);
    expect(ChannelCreateSchema.parse({ ...channel, endpoints: ['chat', 'rerank', 'videos'] }).endpoints).toEqual(['chat', 'rerank', 'videos']);
    expect(ChannelCreateSchema.parse({ ...tavily, endpoints: null }).endpoints).toBeNull();
    expect(ChannelCreateSchema.parse(tavily).endpoints).toBeUndefined();
  });

  it('checks an update naming both type and endpoints; one alone is left to the server, which knows the other', () => {
    expect(issuePaths(ChannelUpdateSchema.safeParse({ type: 'searxng', endpoints: ['chat'] }))).toEqual([['endpoints']]);
    expect(ChannelUpdateSchema.parse({ type: 'searxng', endpoints: null })).toEqual({ type: 'searxng', endpoints: null });
    expect(ChannelUpdateSchema.parse({ endpoints: ['chat'] })).toEqual({ endpoints: ['chat'] });
    expect(ChannelUpdateSchema.parse({ type: 'suno' })).toEqual({ type: 'suno' });
  });
});

describe('ChannelSchema', () => {
  const shown = {
    id: 1,
    name: 'openai-main',
    type: 'openai',
    base_url: 'https://api.openai.com/v1',
    key_hints: ['...abcd'],
    key_status: [{ index: 0, hint: '...abcd', status: 'active', reason: null, changed_at: null }],
    has_active_key: true,
    health: { state: 'closed', attempts: 0, failures: 0, open_until: null, refused_parameters: [] },
    models: ['gpt-4o*'],
    model_mapping: {},
    priority: 0,
    weight: 1,
    enabled: true,
    timeouts: { connect_ms: 1, first_byte_ms: 1, idle_ms: 1 },
    responses_api: 'native',
    endpoints: ['chat', 'completions'],
    endpoints_default: false,
    passthrough: { hosted_tools: ['web_search'], service_tiers: [], audio_output: false, upstream_objects: false },
    cloud: {},
    synced_models_count: 3,
    models_synced_at: '2026-01-02T00:00:00.000Z',
    models_sync_error: null,
    last_check: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };

  it('always carries responses_api: a channel view without it does not parse', () => {
    expect(ChannelSchema.parse(shown).responses_api).toBe('native');
    const { responses_api: _left, ...without } = shown;
    expect(issuePaths(ChannelSchema.safeParse(without))).toEqual([['responses_api']]);
  });

  it('shows the last sync: never synced is null, a failure has a message, code and time', () => {
    const never = { ...shown, synced_models_count: null, models_synced_at: null };
    expect(ChannelSchema.parse(never).synced_models_count).toBeNull();
    const failed = { ...shown, models_sync_error: { message: 'The upstream answered 401', code: 'upstream_auth_failed', at: '2026-01-02T00:00:00.000Z' } };
    expect(ChannelSchema.parse(failed).models_sync_error?.code).toBe('upstream_auth_failed');
    expect(issuePaths(ChannelSchema.safeParse({ ...shown, models_sync_error: { message: 'x', code: null, at: 'yesterday' } }))).toEqual([
      ['models_sync_error', 'at'],
    ]);
  });
});

describe('ChannelModelSyncSchema', () => {
  it('takes synced models with or without the endpoints the upstream said, and refuses an unknown endpoint', () => {
    const answer = {
      channel_id: 1,
      synced_at: '2026-01-02T00:00:00.000Z',
      models: [
        { id: 'gemini-2.5-flash', endpoints: ['chat', 'completions'] },
        { id: 'gpt-4o', endpoints: null },
      ],
      listed: ['gemini-2.5-flash'],
    };
    expect(ChannelModelSyncSchema.parse(answer)).toEqual(answer);
    const unknown = { ...answer, models: [{ id: 'x', endpoints: ['video'] }] };
    expect(issuePaths(ChannelModelSyncSchema.safeParse(unknown))).toEqual([['models', 0, 'endpoints', 0]]);
  });
});

describe('ChannelCheckSchema', () => {
  it('takes a passing check and a failing one with the upstream error, and refuses an unknown trigger', () => {
    expect(ChannelCheckSchema.parse({ ok: true, latency_ms: 120, model: 'gpt-4o', status: 200, at: '2026-11-27T00:00:00.000Z', trigger: 'manual' }).ok).toBe(true);
    const failed = {
      ok: false,
      latency_ms: 30,
      model: 'gpt-4o',
      status: 401,
      error: { message: 'Incorrect API key provided', type: 'authentication_error', param: null, code: 'invalid_api_key' },
      at: '2026-11-27T00:00:00.000Z',
      trigger: 'scheduled',
    };
    expect(ChannelCheckSchema.parse(failed).error?.code).toBe('invalid_api_key');
    expect(ChannelCheckSchema.safeParse({ ...failed, trigger: 'cron' }).success).toBe(false);
  });
});
