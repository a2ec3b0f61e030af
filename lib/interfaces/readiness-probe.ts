/** Injection token of the extra {@link ReadinessProbe}s `GET /health/ready` asks (the event relay's broker). */
export const SVC_READINESS_PROBES = Symbol('svc:readiness_probes');

/** A dependency without which this instance should not receive traffic. */
export interface ReadinessProbe {
  /** Key in the health answer (`nats`). */
  readonly name: string;
  /** `message` of the health answer when down; default `<name> unavailable`. */
  readonly unavailableMessage?: string;
  isReachable(): Promise<boolean>;
}
