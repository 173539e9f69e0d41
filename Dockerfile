# One image for the API (`node dist/src/main.js`) and the worker (`node dist/workers/main.js`).

# Build: every dependency; `npm ci` runs `prepare` (npm run build: Prisma client, Pothos types, the bundles in dist/),
# then the development dependencies (TypeScript, Vitest …) are pruned away.
FROM node:20-slim AS build
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false
WORKDIR /app
COPY . .
RUN npm ci && npm prune --omit=dev && npm cache clean --force

# Run: the built server, the built web app, their production dependencies, nothing else (no sources, no tsx at run time).
FROM node:20-slim
ENV NODE_ENV=production \
    PORT=8000 \
    DATA_DIR=/data
WORKDIR /app
RUN mkdir -p /data && chown node:node /app /data
USER node
# package.json: "type": "module" makes node read dist/ as ES modules.
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/web/dist ./web/dist

EXPOSE 8000
# node itself, not npm: SIGTERM reaches the service, which drains and exits 0 (docs/operations.md).
CMD ["node", "--max-semi-space-size=32", "dist/src/main.js"]
