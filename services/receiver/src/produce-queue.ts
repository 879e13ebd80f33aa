import { MessageLogError, type OutgoingMessage, type Producer } from '@devtrail/message-log';

// Coalesces concurrent requests into one produce call: while a send is in flight,
// new requests wait and then leave together (like Kafka's linger, without a fixed
// delay). Each request's promise settles only when its own messages are acknowledged.
// Bounded: past `maxPendingEvents` waiting events a request is refused (503).

interface Pending {
  topic: string;
  messages: OutgoingMessage[];
  events: number;
  bytes: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class ProduceQueue {
  private queue: Pending[] = [];
  private queuedEvents = 0;
  private sending = false;
  private idle: Array<() => void> = [];

  constructor(
    private readonly producer: Producer,
    private readonly maxPendingEvents: number,
    private readonly maxSendBytes = 8 * 1024 * 1024,
  ) {}

  /** Events waiting for their acknowledgement. */
  get pending(): number {
    return this.queuedEvents;
  }

  /** Resolves once Kafka acknowledged every message; `events` is what they carry (the bound counts events). */
  enqueue(topic: string, messages: OutgoingMessage[], events = messages.length): Promise<void> {
    if (this.queuedEvents + events > this.maxPendingEvents) {
      return Promise.reject(new MessageLogError('produce queue full', true));
    }
    const bytes = messages.reduce((n, m) => n + m.value.length, 0);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ topic, messages, events, bytes, resolve, reject });
      this.queuedEvents += events;
      if (!this.sending) void this.pump();
    });
  }

  private async pump(): Promise<void> {
    this.sending = true;
    while (this.queue.length > 0) {
      const take: Pending[] = [];
      let bytes = 0;
      while (this.queue.length > 0 && (take.length === 0 || bytes + this.queue[0].bytes <= this.maxSendBytes)) {
        const p = this.queue.shift()!;
        take.push(p);
        bytes += p.bytes;
      }
      const byTopic = new Map<string, OutgoingMessage[]>();
      for (const p of take) {
        const list = byTopic.get(p.topic);
        if (list) for (const m of p.messages) list.push(m);
        else byTopic.set(p.topic, p.messages.slice());
      }
      try {
        await this.producer.send([...byTopic].map(([topic, messages]) => ({ topic, messages })));
        take.forEach((p) => p.resolve());
      } catch (err) {
        take.forEach((p) => p.reject(err));
      } finally {
        this.queuedEvents -= take.reduce((n, p) => n + p.events, 0);
      }
    }
    this.sending = false;
    this.idle.splice(0).forEach((f) => f());
  }

  /** Resolves once everything queued has been sent or refused. */
  drain(): Promise<void> {
    if (!this.sending && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }
}
