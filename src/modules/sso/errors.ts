import { DomainError } from '../../errors.ts';

/**
 * A SAML answer that does not sign anyone in. The client learns nothing more: the reason is logged and
 * audited (`sso_login_failed`), never answered, so a forger cannot tune a response against the checks.
 */
export class SsoFailedError extends DomainError {
  override readonly status = 401;
  override readonly code = 'SSO_FAILED';
  constructor() {
    super('Single sign-on failed');
  }
}

export class SsoDisabledError extends DomainError {
  override readonly status = 409;
  override readonly code = 'SSO_DISABLED';
  constructor() {
    super('Single sign-on is not enabled');
  }
}

/**
 * A verified identity whose username or e-mail belongs to an account it is not linked to: it is not taken over.
 * The user learns why (the identity provider vouched for them); the account's id goes only to the audit log.
 */
export class SsoAccountExistsError extends DomainError {
  override readonly status = 409;
  override readonly code = 'SSO_ACCOUNT_EXISTS';
  constructor(readonly accountId: string) {
    super('An account with this username or e-mail already exists; an administrator must link it to your single sign-on identity');
  }
}

/** A link an admin asked for that cannot be made: the first administrator, or an identity linked to someone else. */
export class SsoLinkRefusedError extends DomainError {
  override readonly status = 409;
  override readonly code = 'SSO_LINK_REFUSED';
}
