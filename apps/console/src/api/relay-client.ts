import { createRelayClient, type RelayClient } from '@chat-relay/client';
import axios from 'axios';

/**
 * The console's only way to the relay: the typed client made from the contract, on the page's
 * own origin. axios' fetch adapter, because only fetch hands a browser the streamed body.
 */
export function consoleClient(apiKey: string, baseUrl: string = window.location.origin): RelayClient {
  return createRelayClient({ baseUrl, apiKey, axiosInstance: axios.create({ adapter: 'fetch' }) });
}
