import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

// A child process spoken to in JSON lines: each request is one line on its stdin, each answer one
// line on its stdout, in the order of the requests (its first line, before any request, greets).
// Its stderr is this process's (the stand-in's log). When it exits, every answer still awaited
// fails with the reason, and so does every later request.
export class LineProcess {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly awaited: Array<{ resolve: (answer: unknown) => void; reject: (error: Error) => void }> = [];
  private gone: Error | null = null;
  private readonly exited: Promise<void>;

  constructor(
    private readonly what: string,
    command: string,
    args: string[],
  ) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.fail(new Error(`${what} did not start (${command}): ${error.message}`));
        resolve();
      });
      // 'close', not 'exit': the lines it wrote before exiting are read first.
      this.child.once('close', (code, signal) => {
        this.fail(new Error(`${what} exited (${signal ?? `code ${code}`})`));
        resolve();
      });
    });
    // A write after the child died fails with EPIPE; its exit has failed the request already.
    this.child.stdin.on('error', () => {});
    createInterface({ input: this.child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => this.answer(line));
  }

  /** The next line the child writes, parsed. */
  next(): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    return new Promise((resolve, reject) => this.awaited.push({ resolve, reject }));
  }

  /** Writes one request and returns its answer. */
  request(message: unknown): Promise<unknown> {
    const answer = this.next();
    if (!this.gone) this.child.stdin.write(`${JSON.stringify(message)}\n`);
    return answer;
  }

  /** Closes its stdin (the child's cue to finish and exit); SIGKILL if it has not exited after `timeoutMs`. */
  async close(timeoutMs = 10_000): Promise<void> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }

  private answer(line: string): void {
    const waiter = this.awaited.shift();
    if (!waiter) {
      process.stderr.write(`${this.what}: an answer nobody asked for: ${line.slice(0, 200)}\n`);
      return;
    }
    try {
      waiter.resolve(JSON.parse(line));
    } catch {
      waiter.reject(new Error(`${this.what} answered a line that is not JSON: ${line.slice(0, 200)}`));
    }
  }

  private fail(reason: Error): void {
    this.gone ??= reason;
    for (const waiter of this.awaited.splice(0)) waiter.reject(reason);
  }
}
