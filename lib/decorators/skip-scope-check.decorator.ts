import { SetMetadata } from '@nestjs/common';
import { SKIP_SCOPE_KEY } from '../svc.constants';

/** Skips tenant scope checks on a route or controller; authentication is still required. */
export const SkipScopeCheck = () => SetMetadata(SKIP_SCOPE_KEY, true);
