import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import type { JetStreamClient, NatsConnection } from 'nats';
import type { ReadinessProbe } from '../../interfaces/readiness-probe';
import type { SvcModuleOptions } from '../../interfaces/svc-module-options.interface';
import { loadOptionalPackage } from '../../scale/optional-package';
import { readScaleConfig, withoutPassword } from '../../scale/scale-config';
import { WarningThrottle } from '../../scale/warning-throttle';
import type { ServiceModel } from '../../schema/model';
import { SqlExecutor } from '../../sql/sql-executor';
import { claimOutboxBatch, deletePublishedOutboxEvents, markOutboxPublished } from '../../sql/statements/outbox';
import { SVC_MODEL } from '../../svc.constants';
import { MODULE_OPTIONS_TOKEN } from '../../svc.module-definition';
import { SvcEventOutbox } from './event-outbox';
import { OUTBOX_TABLE } from './outbox.migration';

/** The JetStream stream the relay publishes into (subjects `svc.>`), created when missing. */
export const EVENTS_STREAM = 'SVC_EVENTS';
/** Events claimed per transaction. */
export const RELAY_BATCH_SIZE = 100;
/** How often an idle relay looks for events written by other instances. */
export const RELAY_POLL_MS = 250;
/** How often published rows older than {@link OUTBOX_RETENTION_MS} are deleted. */
export const OUTBOX_CLEANUP_INTERVAL_MS = 60_000;
/** How long a published row stays in `svc_outbox` (for inspection) before cleanup deletes it; longer with a longer `api.realtime.retention`. */
export const OUTBOX_RETENTION_MS = 60 * 60_000;
/** How long the stream the relay creates keeps messages (create the stream yourself to choose). */
export const STREAM_MAX_AGE_MS = 7 * 24 * 60 * 60_000;
/** JetStream's deduplication window of the stream it creates: a re-sent event id within it is dropped. */
export const STREAM_DUPLICATE_WINDOW_MS = 2 * 60_000;

interface ClaimedRow {
  seq: string;
  event_id: string;
  subject: string;
  payload: unknown;
}

/**
 * Publishes `svc_outbox` to NATS JetStream when `EVENTS_URL=nats://…` is set. Runs in every
 * instance: each batch is claimed with `FOR UPDATE SKIP LOCKED` inside a transaction, published
 * (each message carries `Nats-Msg-Id` = the event id, so JetStream drops a re-send within its
 * duplicate window), then marked published in the same transaction. A crash before the commit
 * releases the claim: the batch is published again (at least once; consumers deduplicate by
 * `eventId`). An event is claimed only when no earlier event of the same record is still
 * pending, so each record's events reach NATS in commit order even with several relays.
 */
@Injectable()
export class SvcEventRelay implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown, ReadinessProbe {
  readonly name = 'nats';
  private readonly logger = new Logger('SvcEventRelay');
  private readonly warnings = new WarningThrottle();
  private readonly eventsUrl: string | null;
  private readonly streamName: string;
  private connection: NatsConnection | null = null;
  private jetstream: JetStreamClient | null = null;
  private connected = false;
  private stopped = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private cleanupTimer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(MODULE_OPTIONS_TOKEN) options: SvcModuleOptions,
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
    private readonly outbox: SvcEventOutbox,
    private readonly sql: SqlExecutor,
  ) {
    const env = options.env ?? process.env;
    this.eventsUrl = readScaleConfig(env).eventsUrl;
    this.streamName = env.EVENTS_STREAM?.trim() || EVENTS_STREAM;
    // Fails at startup, naming the package, when EVENTS_URL is set without `nats` installed.
    if (this.eventsUrl !== null) loadOptionalPackage<typeof import('nats')>('nats', 'EVENTS_URL', '2');
  }

  get active(): boolean {
    return this.eventsUrl !== null;
  }

  async isReachable(): Promise<boolean> {
    return this.connected;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.eventsUrl === null) return;
    this.outbox.onCommit(() => this.wake?.());
    this.loop = this.run();
    this.cleanupTimer = setInterval(() => void this.cleanup(), OUTBOX_CLEANUP_INTERVAL_MS);
    this.cleanupTimer.unref();
  }

  /** Stops claiming before the database closes; a batch in flight finishes (or rolls back) first. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.cleanupTimer) clearInterval(this.cleanupTimer);
    this.wake?.();
    await this.loop;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.onModuleDestroy();
    await this.connection?.drain().catch(() => undefined);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        if (!this.connected) await this.connect();
        if (this.stopped) break;
        if ((await this.relayBatch()) > 0) continue;
      } catch (error) {
        this.warnings.warn(this.logger, `Events are kept in ${OUTBOX_TABLE} until NATS accepts them: ${(error as Error).message}`);
      }
      await this.idle();
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(finish, this.connected ? RELAY_POLL_MS : 1_000);
      function finish() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = finish;
    });
  }

  private async connect(): Promise<void> {
    const nats = loadOptionalPackage<typeof import('nats')>('nats', 'EVENTS_URL', '2');
    if (this.connection === null) {
      try {
        this.connection = await nats.connect({
          servers: this.eventsUrl!,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 500,
          timeout: 2_000,
        });
      } catch (error) {
        throw new Error(`NATS at ${withoutPassword(this.eventsUrl!)} is unreachable (${(error as Error).message})`);
      }
      void this.watch(this.connection);
    }
    const manager = await this.connection.jetstreamManager();
    try {
      await manager.streams.info(this.streamName);
    } catch {
      await manager.streams.add({
        name: this.streamName,
        subjects: ['svc.>'],
        duplicate_window: nats.nanos(STREAM_DUPLICATE_WINDOW_MS),
        max_age: nats.nanos(STREAM_MAX_AGE_MS),
      });
      this.logger.log(`Created the JetStream stream ${this.streamName} (subjects svc.>)`);
    }
    this.jetstream = this.connection.jetstream();
    this.connected = true;
  }

  /** Follows the connection's state for readiness. */
  private async watch(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') this.connected = false;
      if (status.type === 'reconnect') this.connected = true;
    }
    this.connected = false;
  }

  /** Claims, publishes and marks one batch in one transaction; returns how many events it published. */
  private relayBatch(): Promise<number> {
    return this.sql.transaction(async (connection) => {
      const rows = await this.sql.records<ClaimedRow>(claimOutboxBatch(this.table(), RELAY_BATCH_SIZE), connection);
      if (rows.length === 0) return 0;
      const jetstream = this.jetstream!;
      // One event per record per batch (see the claim), so publishing concurrently keeps per-record order.
      await Promise.all(
        rows.map((row) =>
          jetstream.publish(row.subject, Buffer.from(JSON.stringify(row.payload)), { msgID: row.event_id, timeout: 5_000 }),
        ),
      );
      await this.sql.records(
        markOutboxPublished(this.table(), rows.map((row) => row.seq)),
        connection,
      );
      return rows.length;
    });
  }

  private async cleanup(): Promise<void> {
    try {
      await this.sql.records(deletePublishedOutboxEvents(this.table(), Math.max(OUTBOX_RETENTION_MS, this.model.api.realtime.retention * 1000)));
    } catch (error) {
      this.warnings.warn(this.logger, `Cleanup of ${OUTBOX_TABLE} failed: ${(error as Error).message}`);
    }
  }

  private table(): string {
    return this.sql.escape(OUTBOX_TABLE);
  }
}
