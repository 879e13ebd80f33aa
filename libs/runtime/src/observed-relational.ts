import { reachability, type LogFn } from '@devtrail/failures';
import { RelationalStoreError, type RelationalStore } from '@devtrail/relational-store';

// PostgreSQL's reachability, seen from the calls the process makes: logged once when it is
// lost and once when it is back (contract reachability.ts), as Kafka and ClickHouse are by
// their adapters.

// SQLSTATEs that mean the server or the connection went away: connection exception (class 08),
// and the admin, crash and cannot-connect-now shutdowns.
const GONE = /^(08|57P0[1-3])/;

/** True when the error says PostgreSQL did not answer (refused, reset, timed out, shutting down). */
function isUnreachable(err: unknown): boolean {
  return err instanceof RelationalStoreError && err.retryable && (err.code === undefined || GONE.test(err.code));
}

export interface RelationalObserver {
  /** For the store's own connection errors (a pooled or listening connection lost between calls). */
  onError(err: Error): void;
  /** The same store, reporting each call's outcome. */
  observe(store: RelationalStore): RelationalStore;
}

export function relationalObserver(log: LogFn): RelationalObserver {
  const server = reachability('postgres', log);
  // An error of the caller's own making (a constraint, a bad statement, an exception thrown
  // inside a transaction) says nothing about the server.
  const seen = <T>(p: Promise<T>): Promise<T> =>
    p.then(
      (v) => (server.reached(), v),
      (err: unknown) => {
        if (isUnreachable(err)) server.unreachable(err);
        else if (err instanceof RelationalStoreError) server.reached();
        throw err;
      },
    );
  return {
    onError(err) {
      // The listening connection reports every failed reconnect: debug.
      log('debug', 'postgres connection error', { err: err.message });
      server.unreachable(err);
    },
    observe: (store) => ({
      kind: store.kind,
      query: (sql, params) => seen(store.query(sql, params)),
      transaction: (fn) => seen(store.transaction(fn)),
      listen: (channel, onNotify, onReset) => store.listen(channel, onNotify, onReset),
      ping: () => seen(store.ping()),
      close: () => store.close(),
    }),
  };
}
