import { AckPolicy, connect, DeliverPolicy, nanos, type NatsConnection } from 'nats';
import { setTimeout as sleep } from 'node:timers/promises';

export const NATS_URL = process.env.SVC_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A message of the relay as a NATS consumer sees it. */
export interface ReceivedEvent {
  subject: string;
  /** `Nats-Msg-Id`: the event id the relay set. */
  msgId: string | undefined;
  payload: {
    eventId: string;
    entity: string;
    action: string;
    id: number | string;
    record: Record<string, unknown>;
    [key: string]: unknown;
  };
}

/**
 * Reads the `SVC_EVENTS` stream from `since` on, through an ephemeral consumer filtered on `subject`,
 * as an independent service would. The stream is created by the relay: call `start()` once an app with
 * `EVENTS_URL` is ready.
 */
export class NatsEventReader {
  readonly received: ReceivedEvent[] = [];
  private connection: NatsConnection | null = null;
  private stopConsuming: () => void = () => undefined;

  constructor(
    private readonly subject: string,
    private readonly since: Date = new Date(),
  ) {}

  async start(stream = 'SVC_EVENTS'): Promise<void> {
    this.connection = await connect({ servers: NATS_URL });
    const info = await (
      await this.connection.jetstreamManager()
    ).consumers.add(stream, {
      ack_policy: AckPolicy.None,
      filter_subject: this.subject,
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: this.since.toISOString(),
      inactive_threshold: nanos(60_000),
    });
    const consumer = await this.connection.jetstream().consumers.get(stream, info.name);
    const messages = await consumer.consume();
    this.stopConsuming = () => messages.stop();
    void (async () => {
      for await (const message of messages) {
        this.received.push({ subject: message.subject, msgId: message.headers?.get('Nats-Msg-Id'), payload: message.json() });
      }
    })();
  }

  /** The received events `accept` keeps, once there are at least `count` of them (or the timeout passed). */
  async waitFor(count: number, accept: (event: ReceivedEvent) => boolean, timeoutMs = 15_000): Promise<ReceivedEvent[]> {
    const deadline = Date.now() + timeoutMs;
    let matched = this.received.filter(accept);
    while (matched.length < count && Date.now() < deadline) {
      await sleep(50);
      matched = this.received.filter(accept);
    }
    return matched;
  }

  async close(): Promise<void> {
    this.stopConsuming();
    await this.connection?.close();
  }
}
