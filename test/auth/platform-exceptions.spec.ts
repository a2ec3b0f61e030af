import { Controller, Get, type INestApplication } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import {
  EntitlementRequiredException,
  QuotaExceededException,
  ServiceLimitReachedException,
  SvcExceptionFilter,
  TeamMemberLimitReachedException,
  WorkspaceNotFoundException,
} from '@svc/nest';
import request from 'supertest';

@Controller()
class ErrorsController {
  @Get('service-limit')
  serviceLimit() {
    throw new ServiceLimitReachedException({ tier: 'free', limit: 1, current: 1, upgradeUrl: '/billing/upgrade' });
  }

  @Get('team-limit')
  teamLimit() {
    throw new TeamMemberLimitReachedException({ tier: 'pro', limit: 5, current: 5, message: 'Seats are full' });
  }

  @Get('entitlement')
  entitlement() {
    throw new EntitlementRequiredException({ entitlement: 'audit_logs', currentTier: 'free' });
  }

  @Get('workspace')
  workspace() {
    throw new WorkspaceNotFoundException();
  }

  @Get('quota')
  quota() {
    throw new QuotaExceededException({ tokensUsed: 1500, tokenLimit: 1000 });
  }
}

describe('platform exceptions through SvcExceptionFilter', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [ErrorsController],
      providers: [{ provide: APP_FILTER, useClass: SvcExceptionFilter }],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(() => app?.close());

  it.each([
    [
      '/service-limit',
      403,
      {
        statusCode: 403,
        error: 'Forbidden',
        message: 'Service limit reached: the free plan allows 1 service',
        code: 'SERVICE_LIMIT_REACHED',
        tier: 'free',
        limit: 1,
        current: 1,
        upgradeUrl: '/billing/upgrade',
      },
    ],
    [
      '/team-limit',
      403,
      {
        statusCode: 403,
        error: 'Forbidden',
        message: 'Seats are full',
        code: 'TEAM_MEMBER_LIMIT_REACHED',
        tier: 'pro',
        limit: 5,
        current: 5,
        upgradeUrl: '/settings/billing',
      },
    ],
    [
      '/entitlement',
      403,
      {
        statusCode: 403,
        error: 'Forbidden',
        message: 'The free plan does not include audit_logs',
        code: 'ENTITLEMENT_REQUIRED',
        entitlement: 'audit_logs',
        currentTier: 'free',
        upgradeUrl: '/settings/billing',
      },
    ],
    ['/workspace', 403, { statusCode: 403, error: 'Forbidden', message: 'Workspace not found', code: 'WORKSPACE_NOT_FOUND' }],
    [
      '/quota',
      429,
      {
        statusCode: 429,
        error: 'Too Many Requests',
        message: 'AI token quota exceeded',
        usage: { tokensUsed: 1500, tokenLimit: 1000, percentage: 150 },
      },
    ],
  ])('GET %s answers %i with the spec body', async (path, status, body) => {
    const res = await request(app.getHttpServer()).get(path).expect(status);
    expect(res.body).toEqual(body);
  });
});
