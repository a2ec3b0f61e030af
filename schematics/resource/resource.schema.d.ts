/** Options of the `resource` schematic (alias `svc-resource`). */
export interface ResourceSchema {
  /** Entity to generate, like `entity` (`nest g` passes it kebab-cased). Every entity when absent. */
  name?: string;
  /** Entity to generate: its files, those of the entities its relations reach, and the shared module, model and index. Every entity when absent. */
  entity?: string;
  /**
   * Path of the `.svcrc` file in the project.
   * @default ".svcrc"
   */
  schema?: string;
  /** Source root to generate under. Default: `rootFolder` of `.svcrc`, relative to the `.svcrc` file. */
  sourceRoot?: string;
  /**
   * Overwrite or delete generated files even when they were edited by hand.
   * @default false
   */
  force?: boolean;
  /** Passed by `nest g`; ignored. */
  path?: string;
  /** Passed by `nest g`; ignored. */
  project?: string;
  /** Passed by `nest g`; ignored. */
  collection?: string;
  /** Passed by `nest g`; ignored. */
  language?: string;
  /** Passed by `nest g`; ignored. */
  spec?: boolean;
  /** Passed by `nest g`; ignored. */
  specFileSuffix?: string;
  /** Passed by `nest g`; ignored. */
  flat?: boolean;
  /** Passed by `nest g`; ignored. */
  skipImport?: boolean;
  /** Passed by `nest g`; ignored. */
  format?: boolean;
  /** Passed by `nest g`; ignored. */
  type?: string;
  /** Passed by `nest g`; ignored. */
  crud?: boolean;
}
