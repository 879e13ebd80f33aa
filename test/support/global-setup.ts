import net from 'node:net';
import type { TestProject } from 'vitest/node';
import { deadLetterWatermarks } from './dead-letters.ts';
import { STACK } from './stack.ts';

// Before any suite runs: the dead-letter topics' watermarks, so that test/final can tell
// what this run dead-lettered from what earlier runs left on the broker.

declare module 'vitest' {
  export interface ProvidedContext {
    /** Dead-letter topic -> messages ever written, at the start of the run; null when Kafka was not reachable. */
    dlqBaseline: Record<string, number> | null;
  }
}

function kafkaReachable(): Promise<boolean> {
  const [host, port] = STACK.kafkaBrokers[0].split(':');
  return new Promise((resolve) => {
    const s = net.connect({ host, port: Number(port) });
    s.setTimeout(1000);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });
}

export default async function setup(project: TestProject) {
  project.provide('dlqBaseline', (await kafkaReachable()) ? await deadLetterWatermarks() : null);
}
