import { unwrap } from '@chat-relay/client';
import { useSession } from '../session/session';
import { useLoad } from './use-load';

/** One page of names is enough for labels; an id past it reads as `#id`. */
const NAMES_PER_PAGE = 100;
const none: ReadonlyMap<string, string> = new Map();

/** Channel id → name, for labelling usage and logs (the admin's only: accounts cannot list channels). */
export function useChannelNames(wanted: boolean): ReadonlyMap<string, string> {
  const { client, isAdmin } = useSession();
  const enabled = wanted && isAdmin;
  const { data } = useLoad(async (signal) => {
    if (!enabled) return none;
    const page = unwrap(await client.api.channels.listChannels({ query: { page: 1, per_page: NAMES_PER_PAGE }, fetchOptions: { signal } }), 200);
    return new Map(page.data.map((channel) => [String(channel.id), channel.name]));
  }, `channels:${enabled}`);
  return data ?? none;
}

/** Token id → name (an account sees its own tokens only, which are the ones in its logs). */
export function useTokenNames(wanted: boolean): ReadonlyMap<string, string> {
  const { client } = useSession();
  const { data } = useLoad(async (signal) => {
    if (!wanted) return none;
    const page = unwrap(await client.api.tokens.listTokens({ query: { page: 1, per_page: NAMES_PER_PAGE }, fetchOptions: { signal } }), 200);
    return new Map(page.data.map((token) => [String(token.id), token.name]));
  }, `tokens:${wanted}`);
  return data ?? none;
}

/** A name when known, else the id (`#12`); `—` for none. */
export const nameOrId = (names: ReadonlyMap<string, string>, id: number | string | null): string =>
  id === null ? '—' : (names.get(String(id)) ?? `#${id}`);
