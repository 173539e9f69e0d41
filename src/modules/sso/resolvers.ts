import { allow, anyone } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { actorOf } from '../../graphql/context.ts';
import { ssoRoles } from './permissions.ts';
import * as sso from './service.ts';
import { linkSsoIdentity, unlinkSsoIdentity } from './links.ts';
import { LinkSsoIdentityInput, SsoConfigType, SsoLinkType, SsoStatusType, UpdateSsoConfigInput } from './types.ts';

builder.queryFields((t) => ({
  ssoStatus: t.field({
    type: SsoStatusType,
    description: 'Whether SAML single sign-on is configured and enabled.',
    authScopes: allow(ssoRoles.status),
    resolve: (_root, _args, context) => sso.getSsoStatus(context.services),
  }),
  ssoSignIn: t.boolean({
    description: 'Whether the sign-in page offers single sign-on (configured and enabled); public, as the sign-in page needs it.',
    authScopes: anyone,
    resolve: async (_root, _args, context) => {
      const status = await sso.getSsoStatus(context.services);
      return status.configured && status.enabled;
    },
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
  linkSsoIdentity: t.field({
    type: SsoLinkType,
    description:
      'Links a user to a NameID of the configured identity provider (admins): that identity then signs in as them. Never the first administrator.',
    authScopes: allow(ssoRoles.link),
    args: { userId: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: LinkSsoIdentityInput, required: true }) },
    resolve: (_root, { userId, input }, context) => linkSsoIdentity(context.services, actorOf(context), String(userId), input),
  }),
  unlinkSsoIdentity: t.field({
    type: SsoLinkType,
    description: "Removes a user's identity provider link (admins).",
    authScopes: allow(ssoRoles.link),
    args: { userId: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { userId }, context) => unlinkSsoIdentity(context.services, actorOf(context), String(userId)),
  }),
}));
