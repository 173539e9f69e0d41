import { defineConfig } from 'prisma/config';

// Offline machines have no native schema engine, and the CLI tries to download one before `generate`
// unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file. Generation does not need the engine; /bin/false
// makes any command that really does (migrate, db push) fail loudly instead. Migrations are created and
// applied by scripts/ through the WebAssembly engine. Set the variable yourself to use a real engine.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= '/bin/false';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost/violet' },
});
