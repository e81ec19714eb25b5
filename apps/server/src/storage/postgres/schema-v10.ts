/**
 * PostgreSQL version 10, the change SQLite makes at its version 17 (issue 32): periodic limits on
 * tokens and accounts, the windows they count in, what each reservation took in them, and
 * `relay_reserve` taking the windows in the same round trip as the lifetime quota.
 */
export const SCHEMA_V10 = `
  ALTER TABLE tokens ADD COLUMN periodic_limits jsonb NOT NULL DEFAULT '[]';
  ALTER TABLE tokens ADD COLUMN time_zone text;
  ALTER TABLE tokens ADD COLUMN alert_thresholds jsonb;
  ALTER TABLE accounts ADD COLUMN periodic_limits jsonb NOT NULL DEFAULT '[]';
  ALTER TABLE accounts ADD COLUMN time_zone text;
  ALTER TABLE accounts ADD COLUMN alert_thresholds jsonb;

  -- A window is its owner, period and first local day: a new one starts empty by its key. Keys
  -- compare by bytes ("C"): every transaction locks windows in this order, as JavaScript sorts them.
  -- A deleted token or account leaves its windows behind (identity ids are never reused).
  CREATE TABLE quota_windows (
    owner text COLLATE "C" NOT NULL CHECK (owner IN ('token', 'account')),
    owner_id integer NOT NULL,
    period text COLLATE "C" NOT NULL,
    start text COLLATE "C" NOT NULL,
    cost bigint NOT NULL DEFAULT 0,
    requests bigint NOT NULL DEFAULT 0,
    tokens bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (owner, owner_id, period, start)
  );
  -- [{"owner", "owner_id", "period", "start"}] a reservation counted in (NULL: none), and the
  -- tokens it reserved there: what its settlement or give-back corrects.
  ALTER TABLE quota_reservations ADD COLUMN windows jsonb;
  ALTER TABLE quota_reservations ADD COLUMN tokens bigint NOT NULL DEFAULT 0;

  -- As version 2's, then every window of p_windows ([{"owner", "owner_id", "period", "start",
  -- "limits": {"cost", "requests", "tokens"}}], sorted by key; a null limit is none): each locked
  -- in turn (a missing one created empty first) and checked — cost needs the amount but at least 1,
  -- requests 1, tokens p_tokens but at least 1. The first that refuses answers
  -- 'window:<index>:<metric>:<used>' and the token's and account's amounts are taken back in the
  -- same transaction: nothing is taken. Else every window counts the amount, one request and
  -- p_tokens, and the reservation records them (also when the amount is 0: a request still counts).
  -- Lock order, here as in every settle and give-back: tokens, accounts, windows by key.
  DROP FUNCTION relay_reserve(text, integer, integer, bigint, text, timestamptz);
  CREATE FUNCTION relay_reserve(p_request_id text, p_token_id integer, p_account_id integer, p_amount bigint,
    p_instance_id text, p_at timestamptz, p_windows jsonb, p_tokens bigint) RETURNS text LANGUAGE plpgsql AS $$
  DECLARE
    needed bigint := GREATEST(p_amount, 1);
    needed_tokens bigint := GREATEST(p_tokens, 1);
    each_window jsonb;
    window_limits jsonb;
    counted record;
    refusal text;
    window_index integer := 0;
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
    FOR each_window IN SELECT value FROM jsonb_array_elements(COALESCE(p_windows, '[]'::jsonb)) LOOP
      INSERT INTO quota_windows (owner, owner_id, period, start)
        VALUES (each_window->>'owner', (each_window->>'owner_id')::integer, each_window->>'period', each_window->>'start')
        ON CONFLICT DO NOTHING;
      SELECT q.cost, q.requests, q.tokens INTO counted FROM quota_windows q
        WHERE q.owner = each_window->>'owner' AND q.owner_id = (each_window->>'owner_id')::integer
          AND q.period = each_window->>'period' AND q.start = each_window->>'start'
        FOR UPDATE;
      window_limits := each_window->'limits';
      refusal := CASE
        WHEN jsonb_typeof(window_limits->'cost') = 'number' AND counted.cost + needed > (window_limits->>'cost')::bigint
          THEN 'cost:' || counted.cost
        WHEN jsonb_typeof(window_limits->'requests') = 'number' AND counted.requests + 1 > (window_limits->>'requests')::bigint
          THEN 'requests:' || counted.requests
        WHEN jsonb_typeof(window_limits->'tokens') = 'number' AND counted.tokens + needed_tokens > (window_limits->>'tokens')::bigint
          THEN 'tokens:' || counted.tokens
      END;
      IF refusal IS NOT NULL THEN
        UPDATE tokens SET quota_used = quota_used - p_amount WHERE id = p_token_id;
        UPDATE accounts SET quota_used = quota_used - p_amount WHERE id = p_account_id;
        RETURN 'window:' || window_index || ':' || refusal;
      END IF;
      window_index := window_index + 1;
    END LOOP;
    IF window_index > 0 THEN
      UPDATE quota_windows q SET cost = q.cost + p_amount, requests = q.requests + 1, tokens = q.tokens + p_tokens
        FROM jsonb_to_recordset(p_windows) AS k(owner text, owner_id integer, period text, start text)
        WHERE q.owner = k.owner AND q.owner_id = k.owner_id AND q.period = k.period AND q.start = k.start;
    END IF;
    IF p_amount > 0 OR window_index > 0 THEN
      INSERT INTO quota_reservations (request_id, token_id, account_id, amount, created_at, instance_id, windows, tokens)
        VALUES (p_request_id, p_token_id, p_account_id, p_amount, p_at, p_instance_id,
          CASE WHEN window_index > 0 THEN (SELECT jsonb_agg(e - 'limits') FROM jsonb_array_elements(p_windows) AS e) END,
          CASE WHEN window_index > 0 THEN p_tokens ELSE 0 END);
    END IF;
    RETURN 'ok';
  END
  $$;
`;
