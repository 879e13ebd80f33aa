export {
  RULE_TYPES,
  MAX_WINDOW_MINUTES,
  MAX_DESTINATIONS,
  DEFAULT_MIN_SESSIONS,
  MAX_MIN_SESSIONS,
  DEFAULT_CRASH_FREE_WINDOW_MINUTES,
  DEFAULT_SCORE_WINDOW_MINUTES,
  DEFAULT_MIN_SCORES,
  MAX_MIN_SCORES,
  ruleParams,
  ruleInput,
  destinationInput,
  type RuleType,
  type RuleParams,
  type RuleInputBody,
} from './rule-schema.ts';
export type { AlertMessage } from './alert-message.ts';
export { webhookBody, slackBody } from './format.ts';
export { SIGNATURE_HEADER, DELIVERY_HEADER, SIGNATURE_TOLERANCE_S, signatureHeader, signatureHex, verifySignature } from './signature.ts';
export { isPrivateAddress } from './private-addresses.ts';
export { postJson, webhookUrlProblem, type SendLimits, type SendResult } from './safe-request.ts';
export { createDeliverer, deliverOnce, deliveryOptionsOf, isRetryableResult, retryDelayMs, leaseMsFor, type Deliverer, type DeliveryOptions } from './deliverer.ts';
export { enqueueMessage, testMessage } from './outbox.ts';
