import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/**
 * @typedef {object} User
 * @property {string} id
 * @property {string} username
 * @property {boolean} is_owner
 * @property {'owner' | 'member' | 'viewer'} role
 * @property {boolean} disabled
 */
/**
 * @typedef {object} Session
 * @property {User | null} user signed-in user, or null
 * @property {boolean} [setupNeeded] no account exists yet
 * @property {{ ingest_port?: number }} config how this deployment is reached
 * @property {() => Promise<void>} refresh re-reads /auth/me
 */

// Who is logged in and how this deployment is reached, shared by every page.
export const SessionContext = createContext(/** @type {Session} */ ({ user: null, config: {}, refresh: async () => {} }));
export const useSession = () => useContext(SessionContext);

/**
 * Where applications send telemetry: this origin, or the receiver's port on this host in distributed mode.
 * @param {Session['config']} [config]
 */
export function ingestBase(config) {
  const port = config?.ingest_port;
  return port ? `${location.protocol}//${location.hostname}:${port}` : location.origin;
}
