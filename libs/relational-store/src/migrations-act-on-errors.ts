// Triage, alerting and source maps (docs/alerts.md, docs/source-maps.md): appended to
// MIGRATIONS in migrations.ts. Kept in their own file so the tables of one feature read
// together.
export const ACT_ON_ERRORS_MIGRATIONS: Array<{ version: number; name: string; sql: string }> = [
  {
    version: 6,
    name: 'error group triage: states, history, releases',
    sql: `
      -- One row per error group the alerts consumer has seen (or a person has triaged).
      -- first_seen/last_seen and first/last release are the consumer's view of the stream;
      -- counts come from the column store.
      CREATE TABLE error_group_states (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        fingerprint char(64) NOT NULL CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
        status text NOT NULL DEFAULT 'unresolved' CHECK (status IN ('unresolved', 'resolved', 'ignored')),
        substatus text NOT NULL DEFAULT 'new' CHECK (substatus IN ('new', 'ongoing', 'regressed', 'escalating', 'resolved', 'resolved_in_release', 'ignored_forever', 'ignored_until', 'ignored_count')),
        resolved_at timestamptz,
        resolved_in_release text,
        ignore_until timestamptz,
        ignore_events_left integer CHECK (ignore_events_left IS NULL OR ignore_events_left >= 0),
        regressed_at timestamptz,
        regressions integer NOT NULL DEFAULT 0,
        first_seen timestamptz,
        last_seen timestamptz,
        first_release text NOT NULL DEFAULT '',
        last_release text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, fingerprint)
      );
      CREATE INDEX error_group_states_status ON error_group_states (project_id, status, updated_at DESC);
      CREATE TABLE error_group_history (
        id bigserial PRIMARY KEY,
        project_id uuid NOT NULL,
        fingerprint char(64) NOT NULL,
        at timestamptz NOT NULL DEFAULT now(),
        actor_kind text NOT NULL CHECK (actor_kind IN ('operator', 'user', 'system')),
        actor_id text,
        actor_name text NOT NULL,
        action text NOT NULL,
        from_status text,
        to_status text NOT NULL,
        details jsonb NOT NULL DEFAULT '{}',
        FOREIGN KEY (project_id, fingerprint) REFERENCES error_group_states (project_id, fingerprint) ON DELETE CASCADE
      );
      CREATE INDEX error_group_history_group ON error_group_history (project_id, fingerprint, at DESC);
      -- When each release was first seen: "newer release" for resolved-in-release regressions.
      CREATE TABLE releases (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        version text NOT NULL CHECK (length(version) BETWEEN 1 AND 200),
        first_seen timestamptz NOT NULL,
        last_seen timestamptz NOT NULL,
        PRIMARY KEY (project_id, version)
      );
    `,
  },
  {
    version: 7,
    name: 'alert rules, destinations, notifications, delivery attempts, consumer positions',
    sql: `
      CREATE TABLE alert_rules (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        type text NOT NULL,
        params jsonb NOT NULL DEFAULT '{}',
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX alert_rules_project ON alert_rules (project_id);
      CREATE TABLE alert_destinations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        rule_id uuid NOT NULL REFERENCES alert_rules(id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('webhook', 'slack')),
        url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
        secret text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX alert_destinations_rule ON alert_destinations (rule_id);
      -- The outbox: one row per (destination, incident). The unique dedup key makes a
      -- re-evaluation after a crash or a redelivery insert nothing new.
      CREATE TABLE alert_notifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        rule_id uuid NOT NULL REFERENCES alert_rules(id) ON DELETE CASCADE,
        destination_id uuid NOT NULL REFERENCES alert_destinations(id) ON DELETE CASCADE,
        dedup_key text NOT NULL,
        payload jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        last_error text,
        UNIQUE (rule_id, destination_id, dedup_key)
      );
      CREATE INDEX alert_notifications_due ON alert_notifications (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX alert_notifications_project ON alert_notifications (project_id, created_at DESC);
      CREATE TABLE alert_delivery_attempts (
        id bigserial PRIMARY KEY,
        notification_id uuid NOT NULL REFERENCES alert_notifications(id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        started_at timestamptz NOT NULL,
        latency_ms integer NOT NULL,
        status_code integer,
        outcome text NOT NULL,
        error text
      );
      CREATE INDEX alert_delivery_attempts_notification ON alert_delivery_attempts (notification_id, attempt);
      -- Per-minute counts behind the threshold rules (events of a group, of a log level, of
      -- error spans; LLM cost), summed over a rule's window.
      CREATE TABLE alert_counts (
        project_id uuid NOT NULL,
        subject text NOT NULL,
        minute timestamptz NOT NULL,
        value double precision NOT NULL,
        PRIMARY KEY (project_id, subject, minute)
      );
      -- When each project last sent each kind (the "no events" rule).
      CREATE TABLE alert_last_seen (
        project_id uuid NOT NULL,
        kind text NOT NULL,
        at timestamptz NOT NULL,
        PRIMARY KEY (project_id, kind)
      );
      -- The next offset the alerts consumer applies per partition, written in the same
      -- transaction as the state it derived: a redelivered message changes nothing.
      CREATE TABLE alert_consumer_positions (
        topic text NOT NULL,
        partition integer NOT NULL,
        next_offset bigint NOT NULL,
        PRIMARY KEY (topic, partition)
      );
    `,
  },
  {
    version: 8,
    name: 'source maps',
    sql: `
      CREATE TABLE source_maps (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        release text NOT NULL CHECK (length(release) BETWEEN 1 AND 200),
        url_key text NOT NULL CHECK (length(url_key) BETWEEN 1 AND 2000),
        debug_id uuid,
        bytes integer NOT NULL,
        map_gzip bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, release, url_key)
      );
      CREATE INDEX source_maps_debug_id ON source_maps (project_id, debug_id) WHERE debug_id IS NOT NULL;
    `,
  },
];
