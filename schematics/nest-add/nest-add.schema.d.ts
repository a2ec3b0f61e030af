/** Options of the `nest-add` schematic (run by `nest add @svc/nest`). */
export interface NestAddSchema {
  /** Source root of the application. Default: `sourceRoot` of `nest-cli.json` (of `project` in a monorepo), else `src`. */
  sourceRoot?: string;
  /**
   * Do not run the package manager after adding dependencies to `package.json`.
   * @default false
   */
  skipInstall?: boolean;
  /** Project of a Nest monorepo (`nest-cli.json` `projects`) to set up. */
  project?: string;
  /**
   * Set `"collection": "@svc/nest"` in `nest-cli.json`, so that `nest g svc-resource` works.
   * @default true
   */
  setCollection?: boolean;
}
