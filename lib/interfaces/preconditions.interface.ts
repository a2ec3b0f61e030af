/** One entity tag of a conditional header: `"abc"` (strong) or `W/"abc"` (weak). */
export interface EntityTag {
  readonly weak: boolean;
  /** What is between the quotes. */
  readonly opaque: string;
}

/** A conditional header's value: `*`, or the listed tags. */
export type EntityTagCondition = '*' | readonly EntityTag[];

/** The conditional headers of a request by id (RFC 9110, section 13.1). Null: the header was not sent. */
export interface RequestPreconditions {
  /** `If-Match` of PATCH, PUT, DELETE and recover: write only the version the client has. */
  readonly ifMatch: EntityTagCondition | null;
  /** `If-None-Match` of GET by id: 304 when the client's copy is current. */
  readonly ifNoneMatch: EntityTagCondition | null;
}
