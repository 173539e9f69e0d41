import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { pagedCost } from '../../graphql/cost.ts';
import { searchRoles } from './permissions.ts';
import { search, SEARCH_LIMIT, SEARCH_QUERY_MAX } from './service.ts';
import { SearchResultsType } from './types.ts';

builder.queryFields((t) => ({
  search: t.field({
    type: SearchResultsType,
    description: `Techniques (ttp id or name), tests (name) and playbooks (title) containing the text, case-insensitive (query 1–${SEARCH_QUERY_MAX} characters; limit per kind default ${SEARCH_LIMIT.defaultLimit}, max ${SEARCH_LIMIT.maxLimit}).`,
    complexity: pagedCost(SEARCH_LIMIT),
    authScopes: allow(searchRoles.read),
    args: { query: t.arg.string({ required: true }), limit: t.arg.int({ required: false }) },
    resolve: (_root, args, context) => search(context.services, args),
  }),
}));
