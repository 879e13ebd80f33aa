# syntax=docker/dockerfile:1
# One image for every devtrail Node service; docker-compose.yml picks the entry point
# (services/receiver/src/main.ts, services/consumers/src/main.ts, ...).
# TypeScript runs through tsx (a devDependency), so the full `npm ci` is intended.
# Node 24 (the current LTS; package.json engines: 22.12 or later). Node 20 reached end of life in
# April 2026; machines that still have it get Node 22 for the tests (deploy/scripts/node.sh).
FROM node:24-slim

WORKDIR /app

# npm workspaces need every workspace's package.json next to the lock file, so the whole
# context is copied. Keep node_modules/, .devtrail/ and .git/ out of the context with a
# .dockerignore; they are removed here as well in case one is missing.
COPY . .
RUN --mount=type=cache,target=/root/.npm \
    rm -rf node_modules .devtrail .data \
 && npm ci --no-audit --no-fund --loglevel=error

# DEVTRAIL_DATA_DIR: the embedded mode's data, and the dashboard's setup-code file; owned by
# the unprivileged user and readable by it only.
RUN install -d -o node -g node -m 700 /data

# kafkajs's request queue schedules timers with negative delays, which Node 24 clamps to
# 1 ms as every version did but now also warns about once per process.
ENV NODE_ENV=production \
    NODE_OPTIONS=--disable-warning=TimeoutNegativeWarning \
    HOST=0.0.0.0 \
    PORT=3000 \
    DEVTRAIL_DATA_DIR=/data

USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "services/receiver/src/main.ts"]
