// Release health (docs/sdk.md#release-health): a session is a Node process, or a page in a
// browser, from the client's start to its end, with the release and environment it ran. It is
// sent when it starts (status ok), when its status changes (errored: an error report; crashed:
// an error nobody handled) and when it ends (exited, unless errored or crashed), each update a
// record of the `sessions` batch section with its sequence number; the receiver keeps them all
// and reads a session's worst status (docs/api.md, release health). Only with a release: health
// is per release. The user (`setUser`) is the session's `distinct_id`, for crash-free users.
import { newIdempotencyKey } from './ids.js';

export type SessionStatus = 'ok' | 'exited' | 'errored' | 'crashed';

export interface WireSession {
  session_id: string;
  distinct_id?: string;
  status: SessionStatus;
  start_time: string;
  timestamp: string;
  duration_ms: number;
  errors: number;
  seq: number;
}

interface Sender {
  sendSession(update: WireSession): void;
  sessionUser(): string | undefined;
}

export class Session {
  readonly id = newIdempotencyKey();
  private readonly startedAt = Date.now();
  private status: SessionStatus = 'ok';
  private errors = 0;
  private seq = 0;
  private ended = false;

  constructor(private readonly sender: Sender) {
    this.update();
  }

  /** An error report: the session is errored, or crashed when nobody handled the error. */
  error(handled: boolean): void {
    if (this.ended) return;
    this.errors++;
    const next: SessionStatus = handled ? (this.status === 'crashed' ? 'crashed' : 'errored') : 'crashed';
    if (next !== this.status) {
      this.status = next;
      this.update();
    }
  }

  end(): void {
    if (this.ended) return;
    if (this.status === 'ok') this.status = 'exited';
    this.update();
    this.ended = true;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  private update(): void {
    const now = Date.now();
    const user = this.sender.sessionUser();
    this.sender.sendSession({
      session_id: this.id,
      ...(user ? { distinct_id: user.slice(0, 128) } : {}),
      status: this.status,
      start_time: new Date(this.startedAt).toISOString(),
      timestamp: new Date(now).toISOString(),
      duration_ms: Math.max(0, now - this.startedAt),
      errors: this.errors,
      seq: this.seq++,
    });
  }
}
