import { allow } from '../../graphql/access.ts';
import { pagedList } from '../../graphql/pagination.ts';
import { builder } from '../../graphql/builder.ts';
import { searchRoles } from './permissions.ts';
import { search, SEARCH_LIMIT, SEARCH_QUERY_MAX } from './service.ts';
import { SearchResultsType } from './types.ts';

builder.queryFields((t) => ({
  search: t.field({
    type: SearchResultsType,
    ...pagedList(
      SEARCH_LIMIT,
      (paging) =>
        `Techniques (ttp id or name), tests (name) and playbooks (title) containing the text, case-insensitive (query 1–${SEARCH_QUERY_MAX} characters; per kind: ${paging}).`,
      { offset: false },
    ),
    authScopes: allow(searchRoles.read),
    args: { query: t.arg.string({ required: true }), limit: t.arg.int({ required: false }) },
    resolve: (_root, args, context) => search(context.services, args),
  }),
}));
