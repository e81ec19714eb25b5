import { regionOfBedrockUrl, type ChannelCloud, type ChannelType } from '@chat-relay/contract';
import { invalidRequest, parseCloudKey } from '@chat-relay/wire';
import type { ChannelCloudRecord } from '../../storage/types';

/** The channel types whose keys are cloud credentials and that take cloud settings (issue 31). */
const CLOUD_TYPES: ReadonlySet<ChannelType> = new Set(['azure', 'bedrock', 'vertex']);

export const isCloudType = (type: ChannelType): boolean => CLOUD_TYPES.has(type);

/** The region a channel's requests are signed for or sent to: its setting, else what its base URL names. */
export function regionOf(type: ChannelType, baseUrl: string, cloud: ChannelCloudRecord | undefined): string | undefined {
  if (cloud?.region) return cloud.region;
  if (type === 'bedrock') return regionOfBedrockUrl(baseUrl);
  if (type === 'vertex') return 'global';
  return undefined;
}

/** The API's `cloud` → the record's. */
export const cloudRecordOf = (cloud: ChannelCloud | undefined): ChannelCloudRecord | undefined =>
  cloud && (cloud.region !== undefined || cloud.api_version !== undefined)
    ? { ...(cloud.region !== undefined ? { region: cloud.region } : {}), ...(cloud.api_version !== undefined ? { apiVersion: cloud.api_version } : {}) }
    : undefined;

/** The record's `cloud` → the API's (`{}` when none). */
export const cloudViewOf = (cloud: ChannelCloudRecord | undefined): ChannelCloud => ({
  ...(cloud?.region !== undefined ? { region: cloud.region } : {}),
  ...(cloud?.apiVersion !== undefined ? { api_version: cloud.apiVersion } : {}),
});

/**
 * A channel as it would be saved: its keys must be credentials its cloud takes, and its settings
 * ones its type reads (400 naming the field otherwise). Checked on create and on every update,
 * against the channel as it would be after the update.
 */
export function assertCloudChannelFits(channel: { type: ChannelType; baseUrl: string; keys: readonly string[]; cloud: ChannelCloudRecord | undefined }): void {
  const { type, baseUrl, keys, cloud } = channel;
  if (!isCloudType(type)) {
    if (cloud) throw invalidRequest(`Only azure, bedrock and vertex channels take cloud settings; ${type} takes none (send "cloud": {}).`, 'cloud', 'invalid_value');
    return;
  }
  keys.forEach((key, index) => {
    const parsed = parseCloudKey(type, key);
    // The key itself never appears in the message: only its position.
    if (parsed && !parsed.ok) throw invalidRequest(`Key ${index} is not a ${type} credential: ${parsed.problem}.`, 'keys', 'invalid_value');
  });
  if (cloud?.apiVersion !== undefined && type !== 'azure') throw invalidRequest(`api_version is Azure's setting; a ${type} channel takes only a region.`, 'cloud.api_version', 'invalid_value');
  if (type === 'azure' && cloud?.region !== undefined) throw invalidRequest("An azure channel's region is its resource's: it is in the base URL, not a setting.", 'cloud.region', 'invalid_value');
  if (type === 'bedrock' && !regionOf(type, baseUrl, cloud)) {
    throw invalidRequest('A bedrock channel needs its AWS region (requests are signed for it): set cloud.region, e.g. "us-east-1", or use a base URL https://bedrock-runtime.{region}.amazonaws.com.', 'cloud.region', 'missing_required_parameter');
  }
}
