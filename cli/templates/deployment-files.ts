/**
 * The deployment files `svc init` writes: a multi-stage `Dockerfile` whose runtime stage runs
 * `node dist/main.js` as the unprivileged `node` user, and a `compose.yaml` with two replicas of
 * the service behind PostgreSQL, Redis and NATS (JetStream), the variables wired.
 */

/**
 * Optional peers of `@svc/nest` that the compose setup needs (`REDIS_URL`, `EVENTS_URL`): a generated
 * application depends on them so its image has them; they are loaded only when the variable is set.
 */
export const SCALE_DEPENDENCIES = ['ioredis', 'nats'] as const;

/** The port the service listens on in its container (`APP_PORT`). */
export const CONTAINER_PORT = 3100;

/** The runtime image's install: production dependencies only. */
export const RUNTIME_INSTALL =
  'if [ -f package-lock.json ]; then npm ci --omit=dev; else npm install --omit=dev; fi && rm -rf node_modules/typescript';

/**
 * The \`Dockerfile\` for the \`@svc/nest\` dependency \`svcPackageSpec\`. The image build sees only the project
 * folder: a local tarball inside it (\`file:svc-nest.tgz\`) is copied in before each \`npm ci\`; one outside it
 * (\`svc init --package ../…\`) cannot be, and the file's first lines say what to do until the package is on
 * the registry.
 */
export function dockerfile(svcPackageSpec: string): string {
  const local = svcPackageSpec.startsWith('file:') ? svcPackageSpec.slice('file:'.length) : undefined;
  if (local === undefined) return dockerfileWith('', '');
  if (!local.startsWith('../') && local !== '..' && local.endsWith('.tgz')) {
    return dockerfileWith(`COPY ${local} ./${local}\n`, `COPY --from=build /app/${local} ./${local}\n`);
  }
  const tarball = local.endsWith('.tgz') ? local : `<the tarball npm pack writes in ${local}>`;
  const note = `# package.json takes @svc/nest from "${svcPackageSpec}", outside this folder, but the image
# build sees only this folder. Until @svc/nest is on the npm registry, copy the tarball in:
#   cp ${tarball} svc-nest.tgz && npm install ./svc-nest.tgz
# then add "COPY svc-nest.tgz ./svc-nest.tgz" above the build stage's "COPY package*.json ./", and
# "COPY --from=build /app/svc-nest.tgz ./svc-nest.tgz" above the runtime stage's one.
# Once @svc/nest is published: npm install @svc/nest, and delete these lines.
`;
  return dockerfileWith('', '', note);
}

function dockerfileWith(buildCopy: string, runtimeCopy: string, note = ''): string {
  return `# syntax=docker/dockerfile:1
${note}# Build stage: every dependency, the compiled application. Also the image of the release step
# (\`svc migrate run\`, see compose.yaml), which needs the CLI and the compiled migrations.
FROM node:22-bookworm-slim AS build
WORKDIR /app
${buildCopy}COPY package*.json ./
RUN if [ -f package-lock.json ]; then npm ci; else npm install; fi
COPY . .
RUN npm run build

# Runtime stage: production dependencies and dist/ only, run as the unprivileged "node" user. svc's tools and
# PGlite are devDependencies, so they stay out. TypeScript is one too, but @nestjs/swagger names it as an optional
# peer (for its build plugin), which makes npm keep it: nothing loads it at run time, so it is removed (24 MB).
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production
ENV APP_PORT=${CONTAINER_PORT}
WORKDIR /app
${runtimeCopy}COPY --from=build /app/package*.json ./
RUN ${RUNTIME_INSTALL} && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node
EXPOSE ${CONTAINER_PORT}
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \\
  CMD node -e "fetch('http://127.0.0.1:' + process.env.APP_PORT + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "dist/main.js"]
`;
}

export const DOCKERIGNORE = `node_modules
dist
.svc
.env
*.log
coverage
.git
`;

/** `compose.yaml` for `name`: two replicas of the service, PostgreSQL, Redis, NATS with JetStream. */
export function composeYaml(name: string): string {
  const database = name.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
  return `# docker compose up --build: PostgreSQL, Redis, NATS (JetStream), the migrations applied once
# (service "migrate"), then two replicas of ${name} on ports 3100 and 3101.
# Set JWT_SECRET (openssl rand -base64 48) when .svcrc declares "auth": production refuses to start without it.
name: '${name}'

x-service-env: &service-env
  NODE_ENV: production
  DATABASE_URL: postgres://app:app@postgres:5432/${database}
  REDIS_URL: redis://redis:6379
  EVENTS_URL: nats://nats:4222
  JWT_SECRET: \${JWT_SECRET:-}

services:
  app:
    build: { context: ., target: runtime }
    environment:
      <<: *service-env
      APP_PORT: '${CONTAINER_PORT}'
      # /health/ready answers 503 this long after SIGTERM before the instance drains.
      SHUTDOWN_GRACE_MS: '5000'
    deploy:
      replicas: 2
    ports:
      - '3100-3101:${CONTAINER_PORT}'
    stop_grace_period: 30s
    depends_on:
      migrate: { condition: service_completed_successfully }
      redis: { condition: service_healthy }
      nats: { condition: service_started }

  migrate:
    build: { context: ., target: build }
    command: ['npx', 'svc', 'migrate', 'run']
    environment: *service-env
    depends_on:
      postgres: { condition: service_healthy }

  postgres:
    image: postgres:17-alpine
    environment:
      POSTGRES_USER: app
      POSTGRES_PASSWORD: app
      POSTGRES_DB: ${database}
    volumes:
      - postgres-data:/var/lib/postgresql/data
    healthcheck:
      test: ['CMD-SHELL', 'pg_isready -U app -d ${database}']
      interval: 5s
      retries: 10

  redis:
    image: redis:7-alpine
    healthcheck:
      test: ['CMD', 'redis-cli', 'ping']
      interval: 5s
      retries: 10

  nats:
    image: nats:2.10-alpine
    command: ['-js', '-sd', '/data']
    volumes:
      - nats-data:/data

volumes:
  postgres-data:
  nats-data:
`;
}

/** The part of `.env.example` about running several instances (appended to the project's own). */
export const SCALE_ENV_EXAMPLE = `
# Several instances (see compose.yaml). Each is optional; unset, everything stays in this process.
# Redis for rate limits and login throttling shared by every instance (needs the ioredis package).
# REDIS_URL=redis://localhost:6379
# Prefix of every Redis key, so that services can share one Redis. Default svc:
# REDIS_KEY_PREFIX=svc:
# NATS with JetStream: domain events written to the svc_outbox table with each change and relayed
# to subjects svc.<entity>.<action> (needs the nats package; apply the outbox migration with svc migrate run).
# EVENTS_URL=nats://localhost:4222
# JetStream stream the relay publishes to (created when missing, subjects svc.>). Default SVC_EVENTS.
# EVENTS_STREAM=SVC_EVENTS
# Milliseconds GET /health/ready answers 503 after SIGTERM before the instance drains. Default 0.
# SHUTDOWN_GRACE_MS=5000
`;
