import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { principalOf } from '../../graphql/context.ts';
import { worklogRoles } from './permissions.ts';
import * as worklogs from './service.ts';
import { CreateWorklogInput, UpdateWorklogInput, WorklogFilterInput, WorklogPage, WorklogSummaryType } from './types.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';

builder.queryFields((t) => ({
  worklogs: t.field({
    type: WorklogPage,
    ...pagedList(worklogs.WORKLOG_PAGE, "The caller's worklogs (admins: everyone's), latest day first"),
    authScopes: allow(worklogRoles.own),
    args: {
      filter: t.arg({ type: WorklogFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context) =>
      worklogs.listWorklogs(context.services, principalOf(context), filter, pagingOf({ offset, limit })),
  }),
  worklog: t.prismaField({
    type: 'Worklog',
    description: "One own worklog (admins: anyone's).",
    authScopes: allow(worklogRoles.own),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => worklogs.getWorklog(context.services, principalOf(context), String(id), query),
  }),
  worklogSummary: t.field({
    type: WorklogSummaryType,
    authScopes: allow(worklogRoles.own),
    args: { filter: t.arg({ type: WorklogFilterInput, required: false }) },
    resolve: (_root, { filter }, context) => worklogs.worklogSummary(context.services, principalOf(context), filter),
  }),
}));

builder.mutationFields((t) => ({
  createWorklog: t.prismaField({
    type: 'Worklog',
    description: 'Logs time of the caller.',
    authScopes: allow(worklogRoles.own),
    args: { input: t.arg({ type: CreateWorklogInput, required: true }) },
    resolve: (query, _root, { input }, context) => worklogs.createWorklog(context.services, principalOf(context), input, query),
  }),
  updateWorklog: t.prismaField({
    type: 'Worklog',
    description: "Changes an own worklog (admins: anyone's).",
    authScopes: allow(worklogRoles.own),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateWorklogInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      worklogs.updateWorklog(context.services, principalOf(context), String(id), input, query),
  }),
  deleteWorklog: t.prismaField({
    type: 'Worklog',
    description: "Deletes an own worklog (admins: anyone's); answers it as it was.",
    authScopes: allow(worklogRoles.own),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => worklogs.deleteWorklog(context.services, principalOf(context), String(id), query),
  }),
}));
