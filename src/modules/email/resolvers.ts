import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { principalOf } from '../../graphql/context.ts';
import { systemRoles } from '../system/permissions.ts';
import * as email from './service.ts';
import { EmailConfigType, TestEmailResultType, UpdateEmailConfigInput } from './types.ts';

builder.queryFields((t) => ({
  emailConfig: t.field({
    type: EmailConfigType,
    description: 'The e-mail (SMTP) settings in force and the deployment defaults (never the password).',
    authScopes: allow(systemRoles.email),
    resolve: (_root, _args, context) => email.getEmailConfig(context.services),
  }),
}));

builder.mutationFields((t) => ({
  updateEmailConfig: t.field({
    type: EmailConfigType,
    description: 'Stores e-mail settings over the deployment defaults (null: back to the default).',
    authScopes: allow(systemRoles.email),
    args: { input: t.arg({ type: UpdateEmailConfigInput, required: true }) },
    resolve: (_root, { input }, context) => email.updateEmailConfig(context.services, principalOf(context), input),
  }),
  sendTestEmail: t.field({
    type: TestEmailResultType,
    description: "Sends a test e-mail now to `to`, or to the caller's own address, and tells whether the SMTP server accepted it.",
    authScopes: allow(systemRoles.email),
    args: { to: t.arg.string({ required: false }) },
    resolve: (_root, args, context) => email.sendTestEmail(context.services, principalOf(context), args),
  }),
}));
