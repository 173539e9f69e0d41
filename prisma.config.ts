import { existsSync } from 'node:fs';
import { defineConfig } from 'prisma/config';

// Offline machines have no native schema engine; generation does not need one, and pointing at /bin/false
// makes any command that really does (migrate, db push) fail loudly instead of downloading.
// Migrations are created and applied by scripts/ through the WebAssembly engine instead.
if (!process.env.PRISMA_SCHEMA_ENGINE_BINARY && !existsSync('node_modules/@prisma/engines/schema-engine-debian-openssl-3.0.x')) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = '/bin/false';
}

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost/violet' },
});
