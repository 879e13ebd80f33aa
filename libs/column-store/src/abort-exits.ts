// libchdb installs ClickHouse's fatal-signal handlers in the process that loads it, and inside
// Node its SIGABRT handler never returns: when V8 runs out of heap it calls abort(), and the
// process then hangs instead of exiting (test/e2e/oom-exits.test.ts shows both). A listener makes
// libuv's handler the process's: it returns, abort() then ends the process (exit 134, SIGABRT),
// and a supervisor restarts it. A SIGABRT sent from outside ends it the same way.
let installed = false;

export function abortExits(): void {
  if (installed) return;
  installed = true;
  process.on('SIGABRT', () => process.exit(134));
}
