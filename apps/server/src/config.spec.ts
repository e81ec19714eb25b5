import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('runs with nothing configured', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      logLevel: 'info',
      maxBodyBytes: 20 * 1024 * 1024,
      maxRetries: 2,
      adminKey: undefined,
      envChannels: [],
    });
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      RELAY_DATA_DIR: '/tmp/x',
      RELAY_ADMIN_KEY: 'a-long-enough-admin-key',
      RELAY_LOG_LEVEL: 'debug',
      RELAY_MAX_BODY_BYTES: '2048',
      RELAY_MAX_RETRIES: '0',
      OPENAI_API_KEY: 'sk-env',
      OPENAI_BASE_URL: 'http://localhost:11434/v1/',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/tmp/x',
      adminKey: 'a-long-enough-admin-key',
      logLevel: 'debug',
      maxBodyBytes: 2048,
      maxRetries: 0,
      envChannels: [{ type: 'openai', apiKey: 'sk-env', baseUrl: 'http://localhost:11434/v1', models: ['*'] }],
    });
  });

  it('reads the quota reservation and usage log variables (issue 10), with their defaults', () => {
    expect(loadConfig({})).toMatchObject({ quotaDefaultCompletionTokens: 1024, usageFlushMs: 250 });
    expect(loadConfig({ RELAY_QUOTA_DEFAULT_COMPLETION_TOKENS: '64', RELAY_USAGE_FLUSH_MS: '100' })).toMatchObject({
      quotaDefaultCompletionTokens: 64,
      usageFlushMs: 100,
    });
    expect(() => loadConfig({ RELAY_QUOTA_DEFAULT_COMPLETION_TOKENS: '0' })).toThrow(/RELAY_QUOTA_DEFAULT_COMPLETION_TOKENS/);
    expect(() => loadConfig({ RELAY_USAGE_FLUSH_MS: '5' })).toThrow(/RELAY_USAGE_FLUSH_MS/);
  });

  it('reads RELAY_METRICS_TOKEN (issue 16): unset by default; shorter than 16 characters stops start-up without echoing it', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ RELAY_METRICS_TOKEN: ' scraper-secret-0123456789 ' }).metricsToken).toBe('scraper-secret-0123456789');
    expect(() => loadConfig({ RELAY_METRICS_TOKEN: 'short-secret' })).toThrow(/^Invalid configuration:\n {2}RELAY_METRICS_TOKEN: must be at least 16 characters$/);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['RELAY_MAX_RETRIES', '-1'],
    ['RELAY_MAX_BODY_BYTES', '1.5'],
    ['RELAY_LOG_LEVEL', 'loud'],
    ['RELAY_ADMIN_KEY', 'short'],
    ['OPENAI_BASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://localhost/x'],
    ['DATABASE_SCHEMA', 'Relay; DROP'],
    ['REDIS_URL', 'localhost:6379'],
    ['RELAY_REDIS_FAILURE_MODE', 'maybe'],
    ['RELAY_LOG_RETENTION_DAYS', '-3'],
    ['RELAY_MAX_TOOLS', '0'],
    ['RELAY_MAX_TOOLS_BYTES', 'lots'],
    ['RELAY_DB_STATEMENT_TIMEOUT_MS', '-1'],
    ['RELAY_DB_QUERY_TIMEOUT_MS', 'soon'],
    ['RELAY_DB_CONNECT_TIMEOUT_MS', '10'],
    ['RELAY_USAGE_BACKLOG_MAX', '5'],
  ])('a bad %s stops start-up with a message naming it', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${variable}: `));
  });

  it('tool limits: 2048 tools and 8 MiB of definitions unless set', () => {
    expect(loadConfig({}).toolLimits).toEqual({ maxTools: 2048, maxToolsBytes: 8 * 1024 * 1024 });
    expect(loadConfig({ RELAY_MAX_TOOLS: '300', RELAY_MAX_TOOLS_BYTES: '1048576' }).toolLimits).toEqual({ maxTools: 300, maxToolsBytes: 1024 * 1024 });
  });

  it('periodic limits count their days in UTC unless RELAY_LIMITS_TIME_ZONE names an IANA zone; an unknown one stops start-up', () => {
    expect(loadConfig({}).limitsTimeZone).toBe('UTC');
    expect(loadConfig({ RELAY_LIMITS_TIME_ZONE: '' }).limitsTimeZone).toBe('UTC');
    expect(loadConfig({ RELAY_LIMITS_TIME_ZONE: ' Asia/Tokyo ' }).limitsTimeZone).toBe('Asia/Tokyo');
    expect(() => loadConfig({ RELAY_LIMITS_TIME_ZONE: 'Mars/Olympus' })).toThrow(/RELAY_LIMITS_TIME_ZONE.*IANA time zone/);
  });

  it('prompt-cache affinity: an hour unless set, 0 switches it off, a week at most', () => {
    expect(loadConfig({}).affinityTtlMs).toBe(3_600_000);
    expect(loadConfig({ RELAY_AFFINITY_TTL_MS: '0' }).affinityTtlMs).toBe(0);
    expect(loadConfig({ RELAY_AFFINITY_TTL_MS: '300000' }).affinityTtlMs).toBe(300_000);
    expect(() => loadConfig({ RELAY_AFFINITY_TTL_MS: String(8 * 86_400_000) })).toThrow(/RELAY_AFFINITY_TTL_MS/);
  });

  it('reads PostgreSQL and Redis settings; without them the relay is one process on SQLite', () => {
    expect(loadConfig({})).toMatchObject({ database: undefined, redis: undefined, refreshMs: 5_000, logRetentionDays: 0 });
    expect(
      loadConfig({
        DATABASE_URL: 'postgresql://relay:pw@db:5432/relay',
        DATABASE_SCHEMA: 'relay_a',
        REDIS_URL: 'rediss://cache:6380/2',
        RELAY_REDIS_FAILURE_MODE: 'closed',
        RELAY_LOG_RETENTION_DAYS: '90',
      }),
    ).toMatchObject({
      database: { url: 'postgresql://relay:pw@db:5432/relay', schema: 'relay_a', maxConnections: 10 },
      redis: { url: 'rediss://cache:6380/2', keyPrefix: 'chat-relay:', failureMode: 'closed' },
      logRetentionDays: 90,
    });
  });

  it('bounds every database call (statement, query and connect timeouts) and the usage backlog, with defaults', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/relay' })).toMatchObject({
      database: { statementTimeoutMs: 10_000, queryTimeoutMs: 12_000, connectTimeoutMs: 5_000 },
      usageBacklogMax: 50_000,
    });
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://db/relay',
        RELAY_DB_STATEMENT_TIMEOUT_MS: '0',
        RELAY_DB_QUERY_TIMEOUT_MS: '3000',
        RELAY_DB_CONNECT_TIMEOUT_MS: '800',
        RELAY_USAGE_BACKLOG_MAX: '1000',
      }),
    ).toMatchObject({ database: { statementTimeoutMs: 0, queryTimeoutMs: 3_000, connectTimeoutMs: 800 }, usageBacklogMax: 1_000 });
  });

  it('makes a channel of each provider whose key is set, with its default base URL', () => {
    expect(loadConfig({ ANTHROPIC_API_KEY: 'sk-ant', GEMINI_API_KEY: 'AIza', GEMINI_BASE_URL: 'http://127.0.0.1:9/v1beta/' }).envChannels).toEqual([
      { type: 'anthropic', apiKey: 'sk-ant', baseUrl: 'https://api.anthropic.com/v1', models: ['claude-*'] },
      { type: 'gemini', apiKey: 'AIza', baseUrl: 'http://127.0.0.1:9/v1beta', models: ['gemini-*'] },
    ]);
  });

  it('reads the shutdown grace and the request timeouts; the headers timeout never exceeds the request timeout', () => {
    expect(loadConfig({})).toMatchObject({ shutdownGraceMs: 30_000, headersTimeoutMs: 20_000, requestTimeoutMs: 60_000 });
    expect(loadConfig({ RELAY_SHUTDOWN_GRACE_MS: '0', RELAY_HEADERS_TIMEOUT_MS: '500', RELAY_REQUEST_TIMEOUT_MS: '2000' })).toMatchObject({
      shutdownGraceMs: 0,
      headersTimeoutMs: 500,
      requestTimeoutMs: 2000,
    });
    expect(loadConfig({ RELAY_REQUEST_TIMEOUT_MS: '5000' })).toMatchObject({ headersTimeoutMs: 5000, requestTimeoutMs: 5000 });
    expect(() => loadConfig({ RELAY_REQUEST_TIMEOUT_MS: '10' })).toThrow(/RELAY_REQUEST_TIMEOUT_MS/);
  });

  it('reads the Responses WebSocket limits: 15 min idle, 60 min of age by default', () => {
    expect(loadConfig({}).responsesWebSocket).toEqual({ idleTimeoutMs: 900_000, maxAgeMs: 3_600_000 });
    expect(loadConfig({ RELAY_RESPONSES_WS_IDLE_TIMEOUT_MS: '5000', RELAY_RESPONSES_WS_MAX_AGE_MS: '60000' }).responsesWebSocket).toEqual({ idleTimeoutMs: 5000, maxAgeMs: 60_000 });
    expect(() => loadConfig({ RELAY_RESPONSES_WS_IDLE_TIMEOUT_MS: '10' })).toThrow(/RELAY_RESPONSES_WS_IDLE_TIMEOUT_MS/);
  });
});
