import {
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { DOMAIN_EVENT_ACTIONS, type DomainEvent, domainEventName } from '../events/domain-event';
import { eventSubject, type OutboxEvent, SvcEventOutbox } from '../events/outbox/event-outbox';
import { OUTBOX_TABLE } from '../events/outbox/outbox.migration';
import type { SvcModuleOptions } from '../interfaces/svc-module-options.interface';
import { loadOptionalPackage } from '../scale/optional-package';
import { readScaleConfig, withoutPassword } from '../scale/scale-config';
import { WarningThrottle } from '../scale/warning-throttle';
import type { EntityModel, ServiceModel } from '../schema/model';
import { SqlExecutor } from '../sql/sql-executor';
import { deleteExpiredOutboxEvents, outboxEventPosition, outboxEventsAfter } from '../sql/statements/outbox';
import { SVC_MODEL } from '../svc.constants';
import { MODULE_OPTIONS_TOKEN } from '../svc.module-definition';
import { ChangeSubscriber, type ViewPartition } from './change-subscriber';
import type { ChangeView } from './judge-change';
import { ViewGroup } from './view-group';
import { type HttpResponse, SseStream } from './sse-stream';

/** How long the feed waits before it tries an unreachable NATS again. */
const NATS_RETRY_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The partition of views not confined to one tenant. */
const UNPARTITIONED = '*';

/** Most events a resume replays; a client that missed more gets `reset` (refetch the list). */
export const MAX_REPLAY = 10_000;
/** Events waiting to be judged for one subscriber past which it counts as too slow. */
export const MAX_PENDING_EVENTS = 1_000;
/**
 * How far back from the event a client resumes after, by transaction start, a resume also looks: a transaction
 * that began earlier may have committed later (its `seq` is lower). Longer than any write transaction.
 */
export const RESUME_OVERLAP_MS = 30_000;
/** How often expired events are deleted from `svc_outbox` when no relay does it. */
export const FEED_CLEANUP_INTERVAL_MS = 60_000;
/** How soon EventSource reconnects after a dropped connection. */
export const RECONNECT_MS = 2_000;

/** What opening a stream needs beyond the subscriber's view. */
export interface ChangeStreamRequest {
  readonly entity: EntityModel;
  readonly view: ChangeView;
  /** Streams with equal keys see the same records (same entity, query and authority): they share one group. */
  readonly viewKey: string;
  /** The tenant the view is confined to (a scope on the entity's own field), or null (bypass, scope through a relation, none). */
  readonly partition: ViewPartition | null;
  /** The user the credential stands for, whose streams a revocation of their sessions ends; null for an API key. */
  readonly userId: string | null;
  /** Whether the credential is still accepted for the same authority (checked at every heartbeat). */
  readonly stillAllowed: () => Promise<boolean>;
  /** Who the `maxStreamsPerCredential` cap counts (`user:7`, `api-key:3`, `ip:…`). */
  readonly credential: string;
  /** `Last-Event-ID`: the last event the client received, or null for a new subscription. */
  readonly lastEventId: string | null;
  readonly response: HttpResponse;
}

interface ReplayRow {
  seq: string;
  event_id: string;
  payload: DomainEvent & { eventId?: string };
}

/**
 * The change feeds of `realtime` entities (`GET /<entities>/changes`): who is subscribed, and the events they
 * are sent. Events come from this process's commits, or, with `EVENTS_URL`, from NATS (every instance's
 * commits, as the relay publishes them); a resume reads `svc_outbox`.
 */
@Injectable()
export class SvcChangeFeed implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SvcChangeFeed');
  private readonly warnings = new WarningThrottle();
  private readonly realtime: ReadonlyMap<string, EntityModel>;
  /** Every open stream. */
  private readonly subscribers = new Set<ChangeSubscriber>();
  /** Streams still judging events alone (a resume), per entity. */
  private readonly alone = new Map<string, Set<ChangeSubscriber>>();
  /** View groups per entity, by partition value (`*` for unpartitioned views), by view key. */
  private readonly groups = new Map<string, Map<string, Map<string, ViewGroup>>>();
  /** Per entity, the field its partitioned views are confined by. */
  private readonly partitionFields = new Map<string, string>();
  /** Events dispatched so far: the order a group and a joining stream agree on. */
  private dispatched = 0;
  private readonly openPerCredential = new Map<string, number>();
  private readonly eventsUrl: string | null;
  private nats: NatsConnection | null = null;
  private cleanupTimer: NodeJS.Timeout | null = null;
  private stopOutbox: (() => void) | null = null;
  private stopped = false;
  private listening: Promise<void> | null = null;

  constructor(
    @Inject(MODULE_OPTIONS_TOKEN) options: SvcModuleOptions,
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
    private readonly outbox: SvcEventOutbox,
    private readonly sql: SqlExecutor,
  ) {
    this.realtime = new Map(model.entities.filter((entity) => entity.realtime).map((entity) => [entity.name, entity]));
    this.eventsUrl = readScaleConfig(options.env ?? process.env).eventsUrl;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.realtime.size === 0) return;
    if (this.eventsUrl === null) {
      this.stopOutbox = this.outbox.onCommit((events) => this.dispatch(events));
      // Without a relay nothing publishes, and so nothing else deletes, the rows past the retention.
      this.cleanupTimer = setInterval(() => void this.cleanup(), FEED_CLEANUP_INTERVAL_MS);
      this.cleanupTimer.unref();
    } else {
      // In the background: the app starts (and serves everything else) while NATS is away, as the relay does.
      this.listening = this.listen();
    }
  }

  /** Ends every stream: an open stream would hold the HTTP server's close. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.stopOutbox?.();
    if (this.cleanupTimer) clearInterval(this.cleanupTimer);
    this.closeAll();
    await this.listening;
    await this.nats?.drain().catch(() => undefined);
  }

  /**
   * Opens a stream: 429 past `api.realtime.maxStreamsPerCredential` streams of the credential, then the head,
   * then (on a resume) the events after `lastEventId`, or `reset` when they are no longer kept.
   */
  async open(request: ChangeStreamRequest): Promise<void> {
    const settings = this.model.api.realtime;
    const open = this.openPerCredential.get(request.credential) ?? 0;
    if (open >= settings.maxStreamsPerCredential) {
      throw new HttpException(
        `Too many open change streams for this credential (api.realtime.maxStreamsPerCredential is ${settings.maxStreamsPerCredential}): close one first`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    const stream = new SseStream(request.response);
    const subscriber = new ChangeSubscriber(
      request.entity.name,
      request.viewKey,
      request.partition,
      request.view,
      request.userId,
      request.stillAllowed,
      stream,
      { maxPending: MAX_PENDING_EVENTS, heartbeatMs: settings.heartbeat * 1000 },
      (caughtUp) => this.join(caughtUp),
    );
    // Subscribed before the resume is read: an event committed meanwhile is judged after the replay, never lost.
    this.add(subscriber, request.credential);
    stream.onClose(() => this.remove(subscriber, request.credential));
    let first: OutboxEvent[] | 'reset';
    try {
      first = request.lastEventId === null ? [] : await this.replay(request.entity, request.lastEventId);
    } catch (error) {
      // The head is not written yet: the error filter answers this request.
      stream.abandon();
      throw error;
    }
    stream.open(RECONNECT_MS);
    subscriber.start(first);
  }

  /** The streams open now, per entity (for tests and metrics). */
  openStreams(entity: string): number {
    return [...this.subscribers].filter((subscriber) => subscriber.entity === entity).length;
  }

  /** Checks the credentials of `userIds`' streams now: their sessions were just revoked in this process. */
  recheckUsers(userIds: readonly string[]): void {
    if (userIds.length === 0) return;
    const users = new Set(userIds);
    for (const subscriber of this.subscribers) if (subscriber.userId !== null && users.has(subscriber.userId)) void subscriber.recheck();
  }

  private add(subscriber: ChangeSubscriber, credential: string): void {
    this.subscribers.add(subscriber);
    let alone = this.alone.get(subscriber.entity);
    if (alone === undefined) this.alone.set(subscriber.entity, (alone = new Set()));
    alone.add(subscriber);
    this.openPerCredential.set(credential, (this.openPerCredential.get(credential) ?? 0) + 1);
  }

  /** Moves a stream that judged every event dispatched so far into its view's group. */
  private join(subscriber: ChangeSubscriber): void {
    if (!this.subscribers.has(subscriber)) return;
    this.alone.get(subscriber.entity)?.delete(subscriber);
    if (subscriber.partition !== null) this.partitionFields.set(subscriber.entity, subscriber.partition.field);
    let partitions = this.groups.get(subscriber.entity);
    if (partitions === undefined) this.groups.set(subscriber.entity, (partitions = new Map()));
    const partition = subscriber.partition?.value ?? UNPARTITIONED;
    let groups = partitions.get(partition);
    if (groups === undefined) partitions.set(partition, (groups = new Map()));
    let group = groups.get(subscriber.viewKey);
    if (group === undefined) groups.set(subscriber.viewKey, (group = new ViewGroup(subscriber.view, MAX_PENDING_EVENTS)));
    group.join(subscriber, this.dispatched);
  }

  private remove(subscriber: ChangeSubscriber, credential: string): void {
    if (!this.subscribers.delete(subscriber)) return;
    this.alone.get(subscriber.entity)?.delete(subscriber);
    const partitions = this.groups.get(subscriber.entity);
    const partition = subscriber.partition?.value ?? UNPARTITIONED;
    const groups = partitions?.get(partition);
    const group = groups?.get(subscriber.viewKey);
    if (group) {
      group.leave(subscriber);
      if (group.size === 0) groups!.delete(subscriber.viewKey);
      if (groups!.size === 0) partitions!.delete(partition);
    }
    const left = (this.openPerCredential.get(credential) ?? 1) - 1;
    if (left > 0) this.openPerCredential.set(credential, left);
    else this.openPerCredential.delete(credential);
  }

  private dispatch(events: readonly OutboxEvent[]): void {
    for (const event of events) {
      const n = ++this.dispatched;
      const entity = event.event.entity;
      for (const subscriber of this.alone.get(entity) ?? []) subscriber.push(event);
      const partitions = this.groups.get(entity);
      if (partitions === undefined) continue;
      for (const partition of this.partitionsOf(entity, event)) {
        for (const group of partitions.get(partition)?.values() ?? []) group.push(n, event);
      }
    }
  }

  /** The partitions a change can concern: unpartitioned views, and the tenants of the row before and after it. */
  private partitionsOf(entity: string, { event }: OutboxEvent): Set<string> {
    const partitions = new Set([UNPARTITIONED]);
    const field = this.partitionFields.get(entity);
    if (field === undefined) return partitions;
    for (const row of [event.record, event.previous]) {
      const value = row?.[field];
      if (value !== undefined && value !== null) partitions.add(String(value));
    }
    return partitions;
  }

  /** The events of `entity` after `lastEventId`, or `reset` when it is unknown (expired, or never was) or too much was missed. */
  private async replay(entity: EntityModel, lastEventId: string): Promise<OutboxEvent[] | 'reset'> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(lastEventId)) return 'reset';
    const table = this.sql.escape(OUTBOX_TABLE);
    const [position] = await this.sql.records<{ seq: string; created_at: Date }>(outboxEventPosition(table, lastEventId));
    if (position === undefined) return 'reset';
    const subjects = DOMAIN_EVENT_ACTIONS.map((action) => eventSubject(domainEventName(entity, action)));
    const rows = await this.sql.records<ReplayRow>(
      outboxEventsAfter(table, { seq: String(position.seq), createdAt: new Date(position.created_at) }, subjects, RESUME_OVERLAP_MS, MAX_REPLAY + 1),
    );
    if (rows.length > MAX_REPLAY) return 'reset';
    return rows.map((row) => ({ eventId: row.event_id, subject: '', event: asEvent(row.payload) }));
  }

  /**
   * With `EVENTS_URL`: every instance's events, as the relay publishes them to NATS (core subscriptions on the
   * stream's subjects). Connects until it succeeds, warning meanwhile. Core NATS keeps nothing for a subscriber
   * that was away: whenever the connection is lost or comes back, every stream is closed, and its client (EventSource
   * reconnects on its own) resumes from `svc_outbox` with `Last-Event-ID`.
   */
  private async listen(): Promise<void> {
    const nats = loadOptionalPackage<typeof import('nats')>('nats', 'EVENTS_URL', '2');
    while (!this.stopped && this.nats === null) {
      try {
        this.nats = await nats.connect({ servers: this.eventsUrl!, maxReconnectAttempts: -1, reconnectTimeWait: 500, timeout: 2_000 });
      } catch (error) {
        this.warnings.warn(this.logger, `Change feeds wait for NATS at ${withoutPassword(this.eventsUrl!)}: ${(error as Error).message}`);
        await sleep(NATS_RETRY_MS);
      }
    }
    if (this.nats === null) return;
    if (this.stopped) {
      await this.nats.close();
      return;
    }
    for (const entity of this.realtime.values()) {
      this.nats.subscribe(`svc.${entity.propertyName}.*`, {
        callback: (error, message) => {
          if (error) return this.warnings.warn(this.logger, `Change feed subscription failed: ${error.message}`);
          try {
            const payload = message.json<DomainEvent & { eventId: string }>();
            this.dispatch([{ eventId: payload.eventId, subject: message.subject, event: asEvent(payload) }]);
          } catch (failure) {
            this.warnings.warn(this.logger, `An event on ${message.subject} could not be read: ${(failure as Error).message}`);
          }
        },
      });
    }
    // Streams opened while NATS was away may have missed events: they resume.
    this.closeAll();
    void this.watch(this.nats);
  }

  private async watch(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') this.closeAll();
    }
  }

  private closeAll(): void {
    for (const subscriber of [...this.subscribers]) subscriber.close();
  }

  private async cleanup(): Promise<void> {
    try {
      await this.sql.records(deleteExpiredOutboxEvents(this.sql.escape(OUTBOX_TABLE), this.model.api.realtime.retention * 1000));
    } catch (error) {
      this.warnings.warn(this.logger, `Cleanup of ${OUTBOX_TABLE} failed: ${(error as Error).message}`);
    }
  }
}

/** An event as JSON carried it (the outbox's payload, a NATS message): its fields, without the event id. */
function asEvent(payload: DomainEvent & { eventId?: string }): DomainEvent {
  const { eventId: _eventId, ...event } = payload;
  return event;
}
