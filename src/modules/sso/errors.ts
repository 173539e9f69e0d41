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
