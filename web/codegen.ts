import type { CodegenConfig } from '@graphql-codegen/cli';

// Typed documents from the API's printed schema: a schema change that breaks a component fails the type check.
const config: CodegenConfig = {
  schema: '../schema.graphql',
  documents: ['src/**/*.tsx', 'src/**/*.ts', '!src/gql/**'],
  ignoreNoDocuments: true,
  generates: {
    './src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: { unmaskFunctionName: 'useFragment' } },
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { UUID: 'string', DateTime: 'string', JSON: 'unknown' },
      },
    },
  },
};

export default config;
