import { builder } from '../../graphql/builder.ts';

export const TestType = builder.prismaObject('Test', {
  description: 'A purple-team test of one technique.',
  fields: (t) => ({
    id: t.exposeID('id'),
  }),
});
