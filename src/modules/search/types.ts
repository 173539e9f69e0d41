import { builder } from '../../graphql/builder.ts';
import { pageItemsCost } from '../../graphql/cost.ts';
import { TestStateEnum } from '../test-runs/types.ts';
import type { SearchResults } from './service.ts';

type Hit<K extends keyof SearchResults> = SearchResults[K][number];

const TechniqueHitType = builder.objectRef<Hit<'techniques'>>('TechniqueSearchHit').implement({
  description: 'A technique whose ttp id or name matches.',
  fields: (t) => ({ id: t.exposeID('id'), ttpId: t.exposeString('ttpId'), name: t.exposeString('name') }),
});

const TestHitType = builder.objectRef<Hit<'tests'>>('TestSearchHit').implement({
  description: 'A test whose name matches.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    state: t.expose('state', { type: TestStateEnum }),
    ttpId: t.exposeString('ttpId', { description: "The test's technique." }),
  }),
});

const PlaybookHitType = builder.objectRef<Hit<'playbooks'>>('PlaybookSearchHit').implement({
  description: 'A playbook whose title matches.',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    ttpId: t.exposeString('ttpId', { description: "The playbook's technique." }),
  }),
});

export const SearchResultsType = builder.objectRef<SearchResults>('SearchResults').implement({
  description: 'What a search found, each kind at most the limit asked for.',
  fields: (t) => ({
    techniques: t.field({
      type: [TechniqueHitType],
      description: 'Active techniques by ttp id or name; an exact ttp id first, then by ttp id.',
      complexity: pageItemsCost,
      resolve: (results) => results.techniques,
    }),
    tests: t.field({
      type: [TestHitType],
      description: 'Tests by name, most recently changed first.',
      complexity: pageItemsCost,
      resolve: (results) => results.tests,
    }),
    playbooks: t.field({
      type: [PlaybookHitType],
      description: 'Playbooks by title, most recently changed first.',
      complexity: pageItemsCost,
      resolve: (results) => results.playbooks,
    }),
  }),
});
