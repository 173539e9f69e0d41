/**
 * The node options the service and the worker run with, wherever they are started: `npm start`, `npm run worker`,
 * the Dockerfile and docker-compose.yml say them again (test/built-server.test.ts holds them equal); the build
 * stores the bundles' code cache under them (V8 takes a cache only from a process with the same flags); the tests
 * and benchmarks that spawn the built service pass them.
 *
 * A young generation of up to 32 MiB per semi-space instead of 16: a request's objects (rows, GraphQL results, the
 * JSON answer) die young, and a larger nursery collects them in fewer scavenges. Measured with `npm run bench:api`
 * (docs/benchmark.md): a sixth less CPU per `GET /techniques` (1,000 rows), for about 40 MiB more at the peak.
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=32'];
