// What a rule fires about, before it is formatted for a destination: the outbox stores
// this, and each delivery formats it (format.ts). Plain JSON.

export interface AlertMessage {
  rule: { id: string; name: string; type: string };
  project_id: string;
  /** One line: what happened. */
  title: string;
  /** A few lines of detail. */
  text: string;
  /** The incident this is about; the same on every retry and after a restart. */
  dedup_key: string;
  /** When the condition was met (ISO 8601). */
  triggered_at: string;
  /** The error group, for group rules. */
  group?: { fingerprint: string; error_type: string; error_message: string; service: string; environment: string; release: string };
  /** The measured value and its bound, for threshold rules. */
  value?: number;
  threshold?: number;
  window_minutes?: number;
  /** A link into the dashboard, when DEVTRAIL_PUBLIC_URL is set. */
  url?: string;
  /** A notification sent with "test rule". */
  test?: boolean;
}
