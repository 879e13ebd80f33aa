export { registerControlPlane, type ControlPlaneOptions } from './control-plane.ts';
export { operatorAuthenticator, type Authenticator, type Principal } from './api/access.ts';
export { registerDashboardUi, type DashboardUi, type DashboardUiOptions } from './ui/register-dashboard-ui.ts';
export { dashboardOpenApi, DASHBOARD_API_DOCS } from './api/openapi.ts';
export { SETUP_CODE_FILE, type IssuedSetupCode } from './auth/setup-code.ts';
