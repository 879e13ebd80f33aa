import { ingest } from './dashboard.ts';

// Release health for the releases page's tests and screenshot: sessions of two releases sent
// to POST /ingest/sessions as the SDK sends them (docs/sdk.md#release-health), a start (ok)
// then an end (exited, or crashed), each session its own user. The older release has no crash,
// the newer one crash per `crashed`; both started within the last hour.

export const DEMO_SESSIONS = [
  { release: 'v1.4.1', sessions: 4, crashed: 0, startedMinutesAgo: 40 },
  { release: 'v1.4.2', sessions: 4, crashed: 1, startedMinutesAgo: 20 },
] as const;

export async function sendDemoSessions(base: string, key: string, now = Date.now()): Promise<void> {
  for (const r of DEMO_SESSIONS) {
    for (let i = 0; i < r.sessions; i++) {
      const start = new Date(now - r.startedMinutesAgo * 60_000 + i * 1000).toISOString();
      const session = { service: 'web', environment: 'production', release: r.release, session_id: `${r.release}-s${i}`, distinct_id: `user-${i}`, start_time: start };
      const updates = [
        { ...session, status: 'ok', seq: 0 },
        { ...session, status: i < r.crashed ? 'crashed' : 'exited', seq: 1, errors: i < r.crashed ? 1 : 0, duration_ms: 60_000 },
      ];
      for (const u of updates) {
        const res = await ingest(base, key, 'sessions', u);
        if (res.status !== 200) throw new Error(`session update answered ${res.status}: ${JSON.stringify(res.body)}`);
      }
    }
  }
}
