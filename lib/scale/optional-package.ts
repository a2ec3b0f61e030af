/** A package the service needs only when a variable asks for it is not installed. */
export class MissingOptionalPackageError extends Error {
  constructor(packageName: string, variable: string, version: string) {
    super(
      `${variable} is set, but the package "${packageName}" is not installed: run npm install ${packageName}@${version}, or unset ${variable}.`,
    );
    this.name = 'MissingOptionalPackageError';
  }
}

/**
 * Loads an optional peer dependency (`ioredis`, `nats`) the first time a variable needs it, so a
 * service that does not set the variable never loads it, and one that does but lacks the package
 * fails at startup with a message naming the package.
 */
export function loadOptionalPackage<T>(packageName: string, variable: string, version: string): T {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(packageName) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && String((error as Error).message).includes(`'${packageName}'`)) {
      throw new MissingOptionalPackageError(packageName, variable, version);
    }
    throw error;
  }
}
