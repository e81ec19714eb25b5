import type pg from 'pg';
import { startTcpProxy } from '../../testing/tcp-proxy';

/** What the relays call themselves in `pg_stat_activity` (createPgPool's application_name). */
const RELAY_APPLICATION = 'chat-relay';

/**
 * PostgreSQL as the relays reach it, through a TCP proxy the test can break — without touching
 * the real server other tests share.
 */
export interface PostgresFault {
  /** DATABASE_URL for the relays: the real one with the proxy's address. */
  url: string;
  /** Connections reset, new ones refused: the server gone (down, restarting). */
  cut(): void;
  /** Connections reset, new ones accepted at once: a failover, or a proxy's idle cut. */
  reset(): void;
  /** Connections accepted and kept, nothing forwarded either way: a partition. */
  blackhole(): void;
  /** Forwarding again. */
  restore(): void;
  /**
   * `pg_terminate_backend` on the relays' own sessions, and on no other: those named
   * `chat-relay` whose client port is one of this proxy's connections. Answers how many.
   */
  terminateRelayBackends(admin: pg.Pool): Promise<number>;
  close(): Promise<void>;
}

/** A proxy in front of `databaseUrl` (its host and port; user, password and database kept). */
export async function openPostgresFault(databaseUrl: string): Promise<PostgresFault> {
  const target = new URL(databaseUrl);
  const proxy = await startTcpProxy(target.hostname || '127.0.0.1', Number(target.port || 5432));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return {
    url: url.toString(),
    cut: () => proxy.cut(),
    reset: () => proxy.reset(),
    blackhole: () => proxy.blackhole(),
    restore: () => proxy.restore(),
    terminateRelayBackends: async (admin) => {
      const ports = proxy.targetPorts();
      if (ports.length === 0) return 0;
      const { rows } = await admin.query<{ terminated: boolean }>(
        `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
         WHERE application_name = $1 AND client_port = ANY($2::int[]) AND pid <> pg_backend_pid()`,
        [RELAY_APPLICATION, ports],
      );
      return rows.filter((row) => row.terminated).length;
    },
    close: () => proxy.close(),
  };
}
