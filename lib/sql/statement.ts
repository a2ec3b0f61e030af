/** SQL text with `$n` placeholders and the values they stand for. */
export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
  /**
   * A text unlikely to run again (a bulk insert of this many rows): run unnamed, so it does not
   * take one of the bounded prepared-statement names.
   */
  readonly oneOff?: boolean;
  /** A read that may run on a read replica (`DATABASE_READ_URLS`): CRUD lists and gets. */
  readonly replica?: boolean;
}
