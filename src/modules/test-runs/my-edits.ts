import type { Role } from '../../auth/roles.ts';
import { builder } from '../../graphql/builder.ts';
import type { TestState } from '../../generated/prisma/enums.ts';
import { testRoles } from './permissions.ts';
import { EDIT_RULES, type EditKind } from './states.ts';

/** The role set each edit mutation is authorised with (the Who column of the edit rules). */
const EDIT_ROLES: Record<EditKind, readonly Role[]> = {
  general: testRoles.update,
  red: testRoles.updateRed,
  blue: testRoles.updateBlue,
  remediation: testRoles.updateRemediation,
  classification: testRoles.classify,
};

/** The groups of fields `role` may edit in `state`, from the same tables the edit mutations enforce. */
export const editsFor = (state: TestState, role: Role | undefined): EditKind[] =>
  (Object.keys(EDIT_RULES) as EditKind[]).filter(
    (kind) => role !== undefined && EDIT_RULES[kind].states.includes(state) && EDIT_ROLES[kind].includes(role),
  );

builder.prismaObjectField('Test', 'myEdits', (t) =>
  t.stringList({
    description:
      "The groups of fields the caller's role may edit in the current state: general, red, blue, remediation, classification. Empty for viewers.",
    resolve: (test, _args, context) => editsFor(test.state, context.auth.principal?.role),
  }),
);
