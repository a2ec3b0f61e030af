import { ForbiddenException, HttpStatus } from '@nestjs/common';

/** 403 for a state-changing request authenticated by the session cookie from an origin the app does not trust (CSRF). */
export class CrossSiteRequestException extends ForbiddenException {
  constructor() {
    super({
      statusCode: HttpStatus.FORBIDDEN,
      message:
        'Cross-site request refused: a write authenticated by the svc_session cookie must come from this app or an origin in api.cors.origin',
      error: 'Forbidden',
    });
  }
}
