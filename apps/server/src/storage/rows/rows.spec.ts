import { usageEntry } from '../../../test/testing/system-api';
import type { NewChannel, PriceRecord } from '../types';
import { ASSISTANT_WRITTEN, assistantColumns } from './assistant-row';
import { CHANNEL_WRITTEN, channelColumns, channelRecordOf, type ChannelRow } from './channel-row';
import { jsonColumn, PG_CODEC, SQLITE_CODEC } from './codec';
import { PRICE_COLUMNS, priceValues } from './price-row';
import { STORED_RESPONSE_COLUMNS, storedResponseColumns } from './stored-response-row';
import { UPSTREAM_OBJECT_COLUMNS, upstreamObjectColumns } from './upstream-object-row';
import { USAGE_WRITTEN, storedUsageEntryOf, usageValues } from './usage-row';

const names = (columns: string): string[] => columns.split(',').map((column) => column.trim());

const channel: NewChannel = {
  name: 'main',
  type: 'openai',
  baseUrl: 'https://api.example.test',
  keys: ['k1', 'k2'],
  models: ['gpt-4o'],
  modelMapping: { b: 'x', a: 'y' },
  priority: 1,
  weight: 2,
  enabled: true,
  timeouts: { connectMs: 1, firstByteMs: 2, idleMs: 3 },
  endpoints: null,
};

describe('row codecs', () => {
  it('read JSON columns as each backend hands them: SQLite text parsed, PostgreSQL values kept; NULL stays null', () => {
    expect(SQLITE_CODEC.json<string[]>('["a"]')).toEqual(['a']);
    expect(PG_CODEC.json<string[]>(['a'])).toEqual(['a']);
    // A jsonb string is a value already: PostgreSQL's codec never parses it again.
    expect(PG_CODEC.json<string>('"quoted"')).toBe('"quoted"');
    expect(SQLITE_CODEC.json(null)).toBeNull();
    expect(PG_CODEC.json(null)).toBeNull();
  });

  it('write flags as each backend binds them, and JSON as text with null (or absent) as SQL NULL', () => {
    expect([SQLITE_CODEC.flag(true), SQLITE_CODEC.flag(false)]).toEqual([1, 0]);
    expect([PG_CODEC.flag(true), PG_CODEC.flag(false)]).toEqual([true, false]);
    expect(jsonColumn(['a'])).toBe('["a"]');
    expect(jsonColumn(null)).toBeNull();
    expect(jsonColumn(undefined)).toBeNull();
  });

  it('map one channel row alike from either backend', () => {
    const written = channelColumns(channel, SQLITE_CODEC);
    const common = { id: 1, responses_api: 'auto' as const, synced_models: null, models_synced_at: null, created_at: 't', updated_at: 't' };
    const fromSqlite = channelRecordOf({ ...written, ...common } as ChannelRow, SQLITE_CODEC);
    const fromPg = channelRecordOf(
      {
        ...common,
        ...written,
        keys: channel.keys,
        key_states: JSON.parse(written.key_states) as ChannelRow['key_states'],
        models: channel.models,
        model_mapping: channel.modelMapping,
        enabled: true,
        timeouts: channel.timeouts,
        endpoints: null,
        passthrough: JSON.parse(written.passthrough) as unknown,
      },
      PG_CODEC,
    );
    expect(fromPg).toEqual(fromSqlite);
    expect(fromSqlite).toMatchObject({ keys: ['k1', 'k2'], enabled: true, modelMapping: { b: 'x', a: 'y' }, endpoints: null });
    expect(Object.keys(fromSqlite.modelMapping)).toEqual(['b', 'a']);
  });
});

describe('written columns', () => {
  // PostgreSQL binds them by position: a value out of its column's place would be stored in another.
  it('name the values in the order the stores bind them', () => {
    expect(Object.keys(channelColumns(channel, PG_CODEC))).toEqual(names(CHANNEL_WRITTEN));
    const assistant = {
      name: 'a',
      description: '',
      instructions: '',
      tools: [],
      temperature: null,
      topP: null,
      maxTokens: null,
      responseFormat: null,
      models: null,
      visibility: 'private' as const,
    };
    expect(Object.keys(assistantColumns(assistant))).toEqual(names(ASSISTANT_WRITTEN));
    const record = {
      id: 'resp_1',
      accountId: 1,
      tokenId: null,
      origin: 'bridged' as const,
      channelId: null,
      keyDigest: null,
      model: 'm',
      previousResponseId: null,
      status: 'completed',
      response: { id: 'resp_1' },
      inputItems: null,
      createdAt: 't',
      expiresAt: 't',
    };
    expect(Object.keys(storedResponseColumns(record))).toEqual([...names(STORED_RESPONSE_COLUMNS), 'size_bytes']);
    const object = { kind: 'item' as const, id: 'f', accountId: 1, channelId: 2, createdAt: 't', expiresAt: 't' };
    expect(Object.keys(upstreamObjectColumns(object))).toEqual(names(UPSTREAM_OBJECT_COLUMNS));
    const price: PriceRecord = { model: 'm', input: 1, output: 2, cacheRead: null, cacheWrite: null };
    expect(priceValues(price, 1, SQLITE_CODEC)).toHaveLength(names(PRICE_COLUMNS).length + 1);
    expect(usageValues(usageEntry({}), SQLITE_CODEC)).toHaveLength(names(USAGE_WRITTEN).length);
  });

  it('read a usage row back as it was written, on either backend', () => {
    const entry = usageEntry({ stream: true, usageEstimated: false, latencyMs: 12, ttfbMs: 3 });
    for (const codec of [SQLITE_CODEC, PG_CODEC]) {
      const values = usageValues(entry, codec);
      const row = Object.fromEntries(names(USAGE_WRITTEN).map((column, index) => [column, values[index]]));
      const { id: _id, ...stored } = storedUsageEntryOf({ ...row, id: 5 } as unknown as Parameters<typeof storedUsageEntryOf>[0]);
      expect(stored).toEqual(expect.objectContaining({ stream: true, usageEstimated: false, latencyMs: 12, ttfbMs: 3, requestId: entry.requestId }));
    }
  });
});
