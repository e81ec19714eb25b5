import type { UsageSeries } from '@chat-relay/contract';
import type { ChartLine } from './chart-series';

export type GroupBy = UsageSeries['group_by'];

const NO_KEY: Readonly<Record<GroupBy, string>> = {
  total: 'All requests',
  model: 'No model',
  channel: 'No channel',
  token: 'No token',
};

/**
 * What a line is called in legends and tables: the model, the channel's or token's name when
 * known (else `#id`), "Other" for the summed rest.
 */
export function lineLabel(line: ChartLine, groupBy: GroupBy, names: ReadonlyMap<string, string>): string {
  if (line.other) return 'Other';
  if (line.key === null) return NO_KEY[groupBy];
  if (groupBy === 'channel' || groupBy === 'token') return names.get(line.key) ?? `#${line.key}`;
  return line.key;
}
