import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { actorOf } from '../../graphql/context.ts';
import { ssoRoles } from './permissions.ts';
import * as sso from './service.ts';
import { SsoConfigType, SsoStatusType, UpdateSsoConfigInput } from './types.ts';

builder.queryFields((t) => ({
  ssoStatus: t.field({
    type: SsoStatusType,
    description: 'Whether SAML single sign-on is configured and enabled.',
    authScopes: allow(ssoRoles.status),
    resolve: (_root, _args, context) => sso.getSsoStatus(context.services),
  }),
  ssoConfig: t.field({
    type: SsoConfigType,
    description: 'The single sign-on settings (admins).',
    authScopes: allow(ssoRoles.config),
    resolve: (_root, _args, context) => sso.getSsoConfig(context.services),
  }),
}));

builder.mutationFields((t) => ({
  updateSsoConfig: t.field({
    type: SsoConfigType,
    description: 'Changes the single sign-on settings (admins); answers them as stored.',
    authScopes: allow(ssoRoles.config),
    args: { input: t.arg({ type: UpdateSsoConfigInput, required: true }) },
    resolve: (_root, { input }, context) => sso.updateSsoConfig(context.services, actorOf(context), input),
  }),
}));
