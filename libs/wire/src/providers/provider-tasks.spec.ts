import { CHANNEL_TYPE_ENDPOINTS, ChannelTypeSchema } from '@chat-relay/contract';
import { musicTaskProvider, videoTaskProvider } from './index';

const CHANNEL_TYPES = ChannelTypeSchema.options;

describe('the task providers by channel type', () => {
  it('serves videos on every channel type that can serve them, and on no other', () => {
    for (const channelType of CHANNEL_TYPES) {
      const provider = videoTaskProvider(channelType);
      expect({ channelType, served: provider !== undefined }).toEqual({ channelType, served: CHANNEL_TYPE_ENDPOINTS[channelType].includes('videos') });
      if (provider) expect([provider.kind, provider.endpoint, provider.submit.endpoint]).toEqual(['video', 'videos', 'videos']);
    }
  });

  it('serves music on every channel type that can serve it, and on no other', () => {
    for (const channelType of CHANNEL_TYPES) {
      const provider = musicTaskProvider(channelType);
      expect({ channelType, served: provider !== undefined }).toEqual({ channelType, served: CHANNEL_TYPE_ENDPOINTS[channelType].includes('music') });
      if (provider) expect([provider.kind, provider.endpoint, provider.submit.endpoint]).toEqual(['music', 'music', 'music']);
    }
  });
});
