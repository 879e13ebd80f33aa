// kafkajs's Connection lines at error level are of two sorts: the socket failed ("Connection
// error: ECONNREFUSED", "Connection timeout"), or the broker answered with an error code
// ("Response Heartbeat(...)": REBALANCE_IN_PROGRESS while a group rebalances, NOT_COORDINATOR,
// ...). Only the first is the broker lost (docs/configuration.md, the outage lines); the second
// is the broker reached, and a rebalance is not an outage.
const CONNECTION_LOSS = /^Connection (error|timeout)\b/;

/** A kafkajs Connection error line that says the socket failed, not that the broker answered "no". */
export const isConnectionLoss = (message: string) => CONNECTION_LOSS.test(message);
