import { smokeApp } from '@svc/nest/testing';
import { ExtensionsModule } from '../../extensions/extensions.module';
import { smokeHeaders } from '../../extensions/smoke-setup';
import { AutogenModule } from '../autogen.module';
import { svcSchema } from '../svc.schema';

/** The app under test, on an in-memory PGlite database, and clients whose tokens it signs itself. */
export const { smokeClient, stopSmokeApp } = smokeApp({
  schema: svcSchema,
  imports: [AutogenModule, ExtensionsModule],
  headers: smokeHeaders,
});
