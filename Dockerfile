# syntax=docker/dockerfile:1
# Node.js 26, the current LTS line.

# Build: all dependencies, compile, keep the result.
FROM node:26-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY libs ./libs
COPY scripts ./scripts
RUN npm run build

# The test suite, run against the compose file's PostgreSQL and Redis (profile "e2e"), with the
# real peers some specs start: nginx for the load balancer's configuration, PgBouncer in front of
# PostgreSQL.
FROM build AS test
RUN apt-get update \
  && apt-get install -y --no-install-recommends nginx-light pgbouncer \
  && rm -rf /var/lib/apt/lists/*
COPY jest.config.js swc.options.cjs openapi.json docker-compose.yml ./
COPY deploy ./deploy
COPY test ./test
CMD ["npm", "test"]

# Production dependencies only.
FROM build AS production-deps
RUN npm prune --omit=dev

# Runtime: no compiler, no dev dependencies, not root.
FROM node:26-slim AS runtime
ENV NODE_ENV=production
# One malloc arena per libuv thread (glibc's default) keeps about 100 MB more resident after the
# photos' image work; two arenas, as sharp advises (docs/adr/0034).
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
# The photos' default directory (PHOTO_DIR: DATA_DIR/photos), the node user's; a volume mounted
# there starts from it.
RUN mkdir -p /app/data/photos && chown -R node:node /app/data
COPY --from=production-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "-e", "fetch('http://127.0.0.1:3000/health/live').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The young generation's size must be a command-line option (V8 sizes it before any script runs):
# the same options as `npm run start:prod` (docs/adr/0009).
CMD ["node", "--max-semi-space-size=16", "dist/src/main"]
