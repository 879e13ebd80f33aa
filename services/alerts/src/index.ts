export { createAlerts, alertsGroupId, ALERTS_CONSUMER, type AlertsService, type AlertsOptions } from './alerts-service.ts';
export { applyEvents, type GroupEvent, type Outcome } from './triage/transition.ts';
export { isNewerRelease } from './triage/release-order.ts';
