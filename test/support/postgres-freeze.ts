import { readFileSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

// Freezing a PostgreSQL of deploy/scripts/postgres.sh (a suite's own: private-engine.ts) with SIGSTOP: the postmaster and
// every child (each backend is its own session, so no process-group signal reaches them all).
// Connections stay open and nothing answers: what a hung or partitioned database looks like to
// its clients, unlike a stop, which refuses connections at once.

const frozen = new Set<number>();

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

function childrenOf(ppid: number): number[] {
  const kids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === ppid) kids.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return kids;
}

/** The postmaster of the cluster in `stackDir` (its pg/data), from its pid file, checked against its command line. */
export function postmasterPid(stackDir: string): number {
  const data = join(realpathSync(stackDir), 'pg/data');
  const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  if (!cmdline(pid).includes(`-D ${data}`)) throw new Error(`pid ${pid} is not the postmaster of ${data}`);
  return pid;
}

/** SIGSTOP the postmaster first (so it starts no new child), then its children; returns the pids. */
export function freezePostgres(stackDir: string): number[] {
  const postmaster = postmasterPid(stackDir);
  process.kill(postmaster, 'SIGSTOP');
  frozen.add(postmaster);
  for (const kid of childrenOf(postmaster)) {
    process.kill(kid, 'SIGSTOP');
    frozen.add(kid);
  }
  return [...frozen];
}

/** SIGCONT every process frozen here; safe to call any number of times. */
export function thawPostgres(): void {
  for (const pid of frozen) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      /* gone */
    }
  }
  frozen.clear();
}

// Last resort: a test run that dies with PostgreSQL frozen would hang every suite after it.
process.once('exit', thawPostgres);
