import { buildOpenApiDocument } from '../rest-adapter/openapi.ts';
import { routes } from '../rest-adapter/routes.ts';
import { schema } from '../src/graphql/schema.ts';
import { lintOpenApi } from '../rest-adapter/spectral.ts';

/** Lints the served OpenAPI document with Spectral's OpenAPI ruleset; exits 1 on any error. */
const results = await lintOpenApi(buildOpenApiDocument(routes, schema));
const errors = results.filter((result) => result.severity === 0);
for (const result of results)
  console.log(`${['error', 'warn', 'info', 'hint'][result.severity]} ${result.code} ${result.path.join('.')}: ${result.message}`);
console.log(`${errors.length} errors, ${results.filter((result) => result.severity === 1).length} warnings`);
process.exitCode = errors.length ? 1 : 0;
