/**
 * PostgreSQL version 2, the change SQLite makes at its version 9: instances and their
 * heartbeats, the instance of each reservation, the hourly usage rollup (backfilled), an index
 * for every filter of the log listing — each ending in (created_at, id), the listing's order —
 * and `relay_reserve`, a reservation in one round trip.
 */
export const SCHEMA_V2 = `
  CREATE TABLE relay_instances (
    instance_id text PRIMARY KEY,
    heartbeat_at timestamptz NOT NULL
  );
  -- NULL: taken before instances were recorded, so by a process long gone.
  ALTER TABLE quota_reservations ADD COLUMN instance_id text;
  CREATE INDEX quota_reservations_instance ON quota_reservations(instance_id);

  -- No NULL in the key (a NULL never conflicts): 0 for no token, account or channel, '' for no model.
  CREATE TABLE usage_rollup (
    hour timestamptz NOT NULL,
    token_id integer NOT NULL,
    account_id integer NOT NULL,
    requested_model text NOT NULL,
    channel_id integer NOT NULL,
    endpoint text NOT NULL,
    status integer NOT NULL,
    requests bigint NOT NULL,
    errors bigint NOT NULL,
    prompt_tokens bigint NOT NULL,
    completion_tokens bigint NOT NULL,
    cache_read_tokens bigint NOT NULL,
    cache_write_tokens bigint NOT NULL,
    units double precision NOT NULL,
    cost bigint NOT NULL,
    PRIMARY KEY (hour, token_id, account_id, requested_model, channel_id, endpoint, status)
  );
  CREATE INDEX usage_rollup_token ON usage_rollup(token_id, hour);
  CREATE INDEX usage_rollup_account ON usage_rollup(account_id, hour);
  INSERT INTO usage_rollup
    SELECT date_trunc('hour', created_at, 'UTC'), COALESCE(token_id, 0), COALESCE(account_id, 0), COALESCE(requested_model, ''),
      COALESCE(channel_id, 0), endpoint, status, COUNT(*), COUNT(*) FILTER (WHERE status >= 400), SUM(prompt_tokens),
      SUM(completion_tokens), SUM(cache_read_tokens), SUM(cache_write_tokens), SUM(units), SUM(cost)
    FROM usage_log GROUP BY 1, 2, 3, 4, 5, 6, 7;

  -- Newest first is ORDER BY created_at DESC, id DESC: each index ends so, no sort needed.
  DROP INDEX usage_log_created;
  DROP INDEX usage_log_token;
  DROP INDEX usage_log_account;
  DROP INDEX usage_log_endpoint;
  CREATE INDEX usage_log_created ON usage_log(created_at, id);
  CREATE INDEX usage_log_token ON usage_log(token_id, created_at, id);
  CREATE INDEX usage_log_account ON usage_log(account_id, created_at, id);
  CREATE INDEX usage_log_endpoint ON usage_log(endpoint, created_at, id);
  CREATE INDEX usage_log_model ON usage_log(requested_model, created_at, id);
  CREATE INDEX usage_log_status ON usage_log(status, created_at, id);
  CREATE INDEX usage_log_channel ON usage_log(channel_id, created_at, id);

  -- Takes the amount from the token and its account when it fits both (a limit reached admits
  -- nothing, not even a free request), records it, and answers 'ok'; else 'token' or 'account'.
  -- The conditional UPDATEs lock the rows: instances reserving at once take turns on them and
  -- each sees the other's amount. When the account refuses, the token's amount is taken back
  -- in the same transaction, so no one ever sees it.
  CREATE FUNCTION relay_reserve(p_request_id text, p_token_id integer, p_account_id integer, p_amount bigint,
    p_instance_id text, p_at timestamptz) RETURNS text LANGUAGE plpgsql AS $$
  DECLARE
    needed bigint := GREATEST(p_amount, 1);
  BEGIN
    UPDATE tokens SET quota_used = quota_used + p_amount
      WHERE id = p_token_id AND (quota_limit IS NULL OR quota_used + needed <= quota_limit);
    IF NOT FOUND THEN
      RETURN 'token';
    END IF;
    UPDATE accounts SET quota_used = quota_used + p_amount
      WHERE id = p_account_id AND (quota_limit IS NULL OR quota_used + needed <= quota_limit);
    IF NOT FOUND THEN
      UPDATE tokens SET quota_used = quota_used - p_amount WHERE id = p_token_id;
      RETURN 'account';
    END IF;
    IF p_amount > 0 THEN
      INSERT INTO quota_reservations (request_id, token_id, account_id, amount, created_at, instance_id)
        VALUES (p_request_id, p_token_id, p_account_id, p_amount, p_at, p_instance_id);
    END IF;
    RETURN 'ok';
  END
  $$;
`;
