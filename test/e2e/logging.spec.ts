import { ConsoleLogger, type INestApplication, type LogLevel } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureSvcApp } from '@svc/nest';
import { InvalidLogLevelError, svcLogLevels } from '../../lib/logging/log-levels';
import { redactUrl } from '../../lib/logging/redact-url';
import request from 'supertest';
import { opsAppModule } from '../apps/ops/src/app.module';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/databases';

interface Line {
  level: LogLevel | undefined;
  context: string | undefined;
  message: string;
}

/** Records what Nest would print, honouring the levels it is given. */
class CapturingLogger extends ConsoleLogger {
  readonly lines: Line[] = [];

  protected override printMessages(messages: unknown[], context?: string, logLevel?: LogLevel): void {
    for (const message of messages) {
      this.lines.push({ level: logLevel, context, message: typeof message === 'string' ? message : JSON.stringify(message) });
    }
  }

  http(): string[] {
    return this.lines.filter((line) => line.context === 'HTTP').map((line) => line.message);
  }
}

interface Booted {
  app: INestApplication;
  logger: CapturingLogger;
  close(): Promise<void>;
}

async function boot(kind: 'pglite' | 'postgres', extraEnv: Record<string, string>): Promise<Booted> {
  const database: TestDatabase = await createTestDatabase(kind);
  const moduleRef = await Test.createTestingModule({ imports: [opsAppModule({ ...database.env, ...extraEnv })] }).compile();
  const logger = new CapturingLogger();
  const app = moduleRef.createNestApplication({ logger });
  configureSvcApp(app, { docs: false });
  await app.init();
  return {
    app,
    logger,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

describe('svcLogLevels', () => {
  it.each([
    [undefined, ['fatal', 'error', 'warn', 'log']],
    ['', ['fatal', 'error', 'warn', 'log']],
    ['error', ['fatal', 'error']],
    ['warn', ['fatal', 'error', 'warn']],
    ['log', ['fatal', 'error', 'warn', 'log']],
    [' DEBUG ', ['fatal', 'error', 'warn', 'log', 'debug']],
    ['verbose', ['fatal', 'error', 'warn', 'log', 'debug', 'verbose']],
  ])('LOG_LEVEL=%p → %p', (value, levels) => {
    expect(svcLogLevels({ LOG_LEVEL: value })).toEqual(levels);
  });

  it('refuses any other value, naming the variable and the accepted values', () => {
    expect(() => svcLogLevels({ LOG_LEVEL: 'chatty' })).toThrow(InvalidLogLevelError);
    expect(() => svcLogLevels({ LOG_LEVEL: 'chatty' })).toThrow(
      'LOG_LEVEL="chatty" is not valid. Use one of: error, warn, log, debug, verbose (default log).',
    );
    expect(() => svcLogLevels({ LOG_LEVEL: 'info' })).toThrow(/\(Nest calls "info" "log"\)/);
  });
});

describe('redactUrl', () => {
  it.each([
    ['/notes', '/notes'],
    ['/notes?', '/notes'],
    ['/notes?limit=5&page=2&sort=text,ASC', '/notes?limit=5&page=2&sort=text,ASC'],
    ['/notes?sort[0]=text%2CDESC&join[]=owner||name&fields=a,b', '/notes?sort[0]=text,DESC&join[]=owner||name&fields=a,b'],
    ['/notes?filter=email||$eq||ada@example.com&or=x', '/notes?filter=***&or=***'],
    ['/notes?filter[0]=a||$eq||1&s=%7B%22a%22%3A1%7D', '/notes?filter[0]=***&s=***'],
    ['/x?access_token=abc&api_key=svc_123&password=hunter2&token=t', '/x?access_token=***&api_key=***&password=***&token=***'],
    ['/x?eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', '/x?***'],
    ['/x?limit=1%0D%0AFAKE', '/x?limit=1??FAKE'],
    ['/x?flag&include_deleted&limit=%E0%A4%A', '/x?***&include_deleted&limit=***'],
    ['/x?' + 'a'.repeat(33) + '=1', '/x?***'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe.each(DATABASE_KINDS)('request logging (%s)', (kind) => {
  describe('LOG_LEVEL=log', () => {
    let booted: Booted;
    beforeAll(async () => {
      booted = await boot(kind, { LOG_LEVEL: 'log' });
    });
    afterAll(() => booted?.close());
    beforeEach(() => {
      booted.logger.lines.length = 0;
    });
    const http = () => request(booted.app.getHttpServer());

    it('writes one line per request: method, path with query values redacted, status, duration', async () => {
      await http().get('/notes?limit=5&sort=text,ASC&filter=text||$eq||top-secret&access_token=tok-123').expect(200);
      expect(booted.logger.http()).toEqual([
        expect.stringMatching(/^GET \/notes\?limit=5&sort=text,ASC&filter=\*\*\*&access_token=\*\*\* 200 \d+\.\dms$/),
      ]);
      expect(booted.logger.lines.find((line) => line.context === 'HTTP')!.level).toBe('log');
    });

    it('never logs Authorization, X-API-Key, cookies or bodies, even for failed requests', async () => {
      const secrets = ['jwt-secret-value', 'svc_key-secret', 'cookie-secret', 'body-secret', 'malformed-secret', 'query-secret'];
      const withCredentials = (req: request.Test) =>
        req.set('Authorization', 'Bearer jwt-secret-value').set('X-API-Key', 'svc_key-secret').set('Cookie', 'svc_session=cookie-secret');
      await withCredentials(http().post('/notes')).send({ text: 'body-secret' }).expect(201);
      await withCredentials(http().post('/notes')).set('Content-Type', 'application/json').send('{"text": "malformed-secret"').expect(400);
      await withCredentials(http().post('/notes'))
        .send({ text: 42 })
        .expect((res) => expect([400, 422]).toContain(res.status));
      await withCredentials(http().get('/nowhere?password=query-secret')).expect(404);
      await withCredentials(http().get('/loan-items/999999')).expect(404);

      expect(booted.logger.http()).toEqual([
        expect.stringMatching(/^POST \/notes 201 \d+\.\dms$/),
        expect.stringMatching(/^POST \/notes 400 \d+\.\dms$/),
        expect.stringMatching(/^POST \/notes 4(00|22) \d+\.\dms$/),
        expect.stringMatching(/^GET \/nowhere\?password=\*\*\* 404 \d+\.\dms$/),
        expect.stringMatching(/^GET \/loan-items\/999999 404 \d+\.\dms$/),
      ]);
      const everything = booted.logger.lines.map((line) => line.message).join('\n');
      for (const secret of secrets) expect(everything).not.toContain(secret);
    });
  });

  describe('LOG_LEVEL=warn', () => {
    let booted: Booted;
    beforeAll(async () => {
      booted = await boot(kind, { LOG_LEVEL: 'warn' });
    });
    afterAll(() => booted?.close());

    it('logs no request lines and nothing below warn', async () => {
      booted.logger.lines.length = 0;
      await request(booted.app.getHttpServer()).get('/notes').expect(200);
      expect(booted.logger.http()).toEqual([]);
      expect(booted.logger.isLevelEnabled('log')).toBe(false);
      expect(booted.logger.isLevelEnabled('warn')).toBe(true);
    });
  });

  it('LOG_LEVEL=debug turns debug on', async () => {
    const booted = await boot(kind, { LOG_LEVEL: 'debug' });
    try {
      expect(booted.logger.isLevelEnabled('debug')).toBe(true);
      expect(booted.logger.isLevelEnabled('verbose')).toBe(false);
    } finally {
      await booted.close();
    }
  });

  it('an invalid LOG_LEVEL stops the application from starting', async () => {
    const database = await createTestDatabase(kind);
    try {
      await expect(Test.createTestingModule({ imports: [opsAppModule({ ...database.env, LOG_LEVEL: 'loud' })] }).compile()).rejects.toThrow(
        'LOG_LEVEL="loud" is not valid',
      );
    } finally {
      await database.drop();
    }
  });
});
