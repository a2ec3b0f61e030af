import { SetMetadata } from '@nestjs/common';
import { IS_PUBLIC_KEY } from '../svc.constants';

/** Skips every svc guard on a route or controller: no authentication, no scope check. */
export const Public = () => SetMetadata(IS_PUBLIC_KEY, true);
