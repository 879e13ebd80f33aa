import { ALERTS_CONSUMER, createAlerts, type AlertsService } from '@devtrail/alerts';
import type { Config, Logger } from '@devtrail/config';
import type { Adapters } from '@devtrail/runtime';

// The alerts consumer beside the sinks when CONSUMERS names it ("alerts", on by default).

/** CONSUMERS without the alerts entry: what createSinks takes. */
export const sinkNamesOf = (enabled: string[]) => enabled.filter((n) => n !== ALERTS_CONSUMER);

export function alertsIfEnabled(config: Config, adapters: Adapters, logger: Logger): AlertsService | null {
  return config.consumers.enabled.includes(ALERTS_CONSUMER) ? alertsFromConfig(config, adapters, logger) : null;
}

export function alertsFromConfig(config: Config, adapters: Adapters, logger: Logger): AlertsService {
  return createAlerts({
    messageLog: adapters.messageLog,
    topics: adapters.topics,
    relational: adapters.relational,
    columnStore: adapters.columnStore,
    groupPrefix: config.consumers.groupPrefix,
    logger,
    alerts: config.alerts,
    llmPrices: config.llmPrices,
    publicUrl: config.publicUrl,
    retryMaxMs: config.consumers.retryMaxMs,
  });
}
