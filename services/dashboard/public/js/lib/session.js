import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

// Who is logged in and how this deployment is reached, shared by every page.
export const SessionContext = createContext({ user: null, config: {}, refresh: async () => {} });
export const useSession = () => useContext(SessionContext);

/** Where applications send telemetry: this origin, or the receiver's port on this host in distributed mode. */
export function ingestBase(config) {
  const port = config && config.ingest_port;
  return port ? `${location.protocol}//${location.hostname}:${port}` : location.origin;
}
