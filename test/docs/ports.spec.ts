/**
 * The docs address a running app on the port apps listen on (issue #26): `svc dev`, `svc init`'s
 * `.env` and `nest add`'s `main.ts` all default to 3100, so a `localhost:3000` in an example sends a
 * reader's request nowhere. Other ports in the docs belong to the services named here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_PORT_EXPRESSION } from '../../schematics/nest-add/source-edits';
import { markdownPages, ROOT } from './markdown';

/** Ports of other programs the docs mention, each with what it is. */
const OTHER_PORTS: Record<string, string> = {
  '4222': 'NATS',
  '5173': "Vite's dev server (a front end)",
  '5432': 'PostgreSQL',
  '6379': 'Redis',
};

const appPort = /\?\? (\d+)$/.exec(APP_PORT_EXPRESSION)![1];

describe('ports in the docs', () => {
  it('apps listen on 3100 by default', () => {
    expect(appPort).toBe('3100');
  });

  it.each(markdownPages())('%s addresses apps on the port they listen on', (page) => {
    const wrong = readFileSync(join(ROOT, page), 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        [...line.matchAll(/\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):(\d+)/g)]
          .filter((match) => match[1] !== appPort && !(match[1] in OTHER_PORTS))
          .map((match) => `${page}:${index + 1}: ${match[0]}`),
      );
    expect(wrong).toEqual([]);
  });
});
