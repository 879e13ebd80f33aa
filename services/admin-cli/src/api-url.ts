// Where the CLI finds the admin API when neither --api nor DEVTRAIL_API_URL says
// (docs/configuration.md): the embedded process serves it on its one port (PORT, 3000); in
// distributed mode (DEVTRAIL_MODE=distributed, as the services are configured) the dashboard
// service does (DASHBOARD_PORT, 3001), never the receiver. A bare 404 from a port that is not
// the admin API's is answered with what to set (notAdminApi).

export function defaultApiUrl(env: Record<string, string | undefined>): string {
  if (env.DEVTRAIL_MODE === 'distributed') return `http://127.0.0.1:${env.DASHBOARD_PORT || 3001}`;
  return `http://127.0.0.1:${env.PORT || 3000}`;
}

/** What a route-not-found 404 from `apiUrl` means for the CLI: the address is not the admin API's. */
export function notAdminApi(apiUrl: string, answer: string): string {
  return (
    `${apiUrl} does not serve the admin API (404 ${answer}). In distributed mode the admin API is the dashboard service's ` +
    "(DASHBOARD_PORT, default 3001), not the receiver's: set DEVTRAIL_API_URL to it (e.g. http://127.0.0.1:3001), pass --api, " +
    'or set DEVTRAIL_MODE=distributed (and DASHBOARD_PORT) to make that the default.'
  );
}
