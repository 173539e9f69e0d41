# One image for the API (`npm start`) and the worker (`npm run worker`).
FROM node:20-slim

ENV NODE_ENV=production \
    PORT=8000 \
    DATA_DIR=/data \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false

WORKDIR /app
RUN mkdir -p /data && chown node:node /app /data
USER node

COPY --chown=node:node package.json package-lock.json ./
# Runtime dependencies only: tsx and prisma are dependencies, TypeScript and Vitest are not needed here.
RUN npm ci --omit=dev && npm cache clean --force

COPY --chown=node:node . .
RUN npm run generate

EXPOSE 8000
# node itself, not npm: SIGTERM reaches the service, which drains and exits 0 (docs/operations.md).
CMD ["node", "--import", "tsx", "src/main.ts"]
