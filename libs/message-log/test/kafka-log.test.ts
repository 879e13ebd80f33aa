import { describe } from 'vitest';
import { createKafkaLog } from '../src/index.ts';
import { messageLogContract, redeliveryAfterHandlerFailure } from './message-log.contract.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../../../test/support/stack.ts';

if (await stackUp()) {
  messageLogContract('Apache Kafka (real broker)', async () => createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'contract-test' }));
  redeliveryAfterHandlerFailure('Apache Kafka (real broker)', async () => createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'contract-test' }));
} else {
  describe.skip(`message log contract: Kafka (skipped: ${NO_STACK_REASON})`, () => {});
}
