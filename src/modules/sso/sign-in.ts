import { z } from 'zod';
import { SSO_REQUEST_TTL_MS } from '../../auth/sso-state.ts';
import { domainErrorFrom } from '../../db/errors.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { ServiceUnavailableError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { issueSession, type Session } from '../auth/service.ts';
import { SsoAccountExistsError, SsoDisabledError, SsoFailedError, SsoLinkRefusedError } from './errors.ts';
import type { AssertionFacts } from './messages.ts';
import { linkAccount, ProvisioningRefusal, provisionUser, SSO_ACTOR, type SsoIdentity } from './provisioning.ts';
import { safeRelayPath } from './relay-state.ts';
import { responseShapeProblem } from './response-shape.ts';
import { issuedRequests, linkKey } from './service.ts';
import { CLOCK_SKEW_MS, isReady, loadSettings, serviceProviderUrls, type ReadySettings } from './settings.ts';

/** A reason a SAML answer is refused, for the log and the audit entry. */
class Refusal extends Error {}

const email = z.email().max(254);
const REASON_MAX = 300;

export interface SsoSignIn {
  session: Session;
  /** The relay state, if it is a path of this service; `/` otherwise. */
  redirectTo: string;
}

/** What the callback received: the form the identity provider's page posted, and the browser's request cookie. */
export interface SamlCallback {
  form: Record<string, unknown>;
  /** The id of the AuthnRequest this browser started (`svc_sso_request`), if it sent one. */
  startedRequestId: string | null;
  clientIp: string;
}

/**
 * Signs in with an HTTP-POST SAMLResponse: node-saml checks the signatures (assertion required, Response when
 * present), audience, NotBefore/NotOnOrAfter and InResponseTo; then the request id is spent, and the answer must
 * be to the request this browser started, from the configured issuer, to this service (destination,
 * recipient); the assertion id is claimed once, and the user is found by issuer + NameID or created. Any refusal
 * answers 401 SSO_FAILED, with its reason only in the log and the audit log, and changes no user; a new identity
 * whose username or e-mail an existing account has answers 409 SSO_ACCOUNT_EXISTS.
 */
export async function signInWithSaml(services: Services, { form, startedRequestId, clientIp }: SamlCallback): Promise<SsoSignIn> {
  const settings = await loadSettings(services.prisma);
  if (!settings.enabled || !isReady(settings)) throw new SsoDisabledError();
  try {
    const identity = await verifiedIdentity(services, settings, form.SAMLResponse, startedRequestId);
    // startedRequestId equals the answered request id here; a user who started it to link their account is named by it.
    const linkUserId = await services.ssoState.requests.removeAsync(linkKey(startedRequestId!));
    const { user, matchedBy, previousRole } = await inTransaction(services, SSO_ACTOR, (uow) =>
      linkUserId ? linkAccount(uow, identity, linkUserId) : provisionUser(uow, settings, identity),
    );
    const session = await issueSession(services, user);
    await services.prisma.auditLog.create({
      data: {
        userId: user.id,
        username: user.username,
        action: 'sso_login',
        entityType: 'user',
        entityId: user.id,
        details: { client_ip: clientIp, matched_by: matchedBy, role: user.role, ...(previousRole ? { previous_role: previousRole } : {}) },
      },
    });
    return { session, redirectTo: safeRelayPath(form.RelayState) };
  } catch (error) {
    // A busy database or an unreachable SSO state is no verdict on the answer: 503, to retry.
    if (domainErrorFrom(error) instanceof ServiceUnavailableError) throw domainErrorFrom(error);
    // The identity is genuine but may not take this account: the user is told why (409), the audit log names it.
    if (error instanceof SsoAccountExistsError || error instanceof SsoLinkRefusedError) {
      const reason =
        error instanceof SsoAccountExistsError
          ? `the username or e-mail belongs to account ${error.accountId}, which is not linked to this identity`
          : error.message;
      await refused(services, reason, clientIp);
      throw error;
    }
    const ours = error instanceof Refusal || error instanceof ProvisioningRefusal;
    await refused(services, ours ? error.message : describe(error), clientIp, ours ? undefined : error);
    throw new SsoFailedError();
  }
}

async function verifiedIdentity(
  services: Services,
  settings: ReadySettings,
  samlResponse: unknown,
  startedRequestId: string | null,
): Promise<SsoIdentity> {
  if (typeof samlResponse !== 'string' || !samlResponse) throw new Refusal('no SAMLResponse in the form');
  const problem = responseShapeProblem(samlResponse, services.config.SSO_MAX_RESPONSE_SIZE);
  if (problem) throw new Refusal(problem);
  const { acsUrl } = serviceProviderUrls(services.config);
  // node-saml and its XML libraries are loaded at the first sign-in, not at start.
  const { samlOptions } = await import('./saml.ts');
  const options = samlOptions(services, settings);
  const verification = await services.samlVerifier.verify(
    samlResponse,
    options,
    services.config.SSO_ALLOW_SHA1,
    issuedRequests(services.ssoState.requests),
  );
  if (!verification.ok) throw new Refusal(verification.reason);
  const { envelope, assertion } = verification;
  // One answer per request: node-saml spends the request id when it refuses an answer, this spends it on success.
  await services.ssoState.requests.removeAsync(envelope.inResponseTo);
  // Login CSRF: a valid answer obtained by someone else, posted from their page, must not sign this browser in.
  if (!startedRequestId || startedRequestId !== envelope.inResponseTo)
    throw new Refusal('the response answers no sign-in this browser started');
  if (!assertion) throw new Refusal('the response holds no assertion');
  // node-saml reads but does not compare the issuers; a certificate shared by several IdP entities would otherwise pass.
  if (assertion.issuer !== settings.idpEntityId)
    throw new Refusal(`assertion issuer ${quote(assertion.issuer)} is not the identity provider`);
  if (envelope.issuer !== null && envelope.issuer !== settings.idpEntityId)
    throw new Refusal(`response issuer ${quote(envelope.issuer)} is not the identity provider`);
  if (envelope.destination !== null && envelope.destination !== acsUrl)
    throw new Refusal(`response destination ${quote(envelope.destination)} is not this service`);
  if (assertion.recipients.some((recipient) => recipient !== acsUrl))
    throw new Refusal('subject confirmation recipient is not this service');
  // One assertion signs in once: its id is remembered until the assertion expires.
  if (!assertion.id) throw new Refusal('the assertion has no ID');
  if (!(await services.ssoState.claimAssertion(assertion.id, rememberUntil(assertion)))) throw new Refusal('assertion replayed');
  return identityOf(settings, assertion);
}

function identityOf(settings: ReadySettings, assertion: AssertionFacts): SsoIdentity {
  const { attributeMapping } = settings;
  const first = (name: string | null) => (name ? (assertion.attributes.get(name)?.[0] ?? null) : null);
  if (!assertion.nameId) throw new Refusal('no NameID');
  const username = attributeMapping.username ? first(attributeMapping.username) : assertion.nameId;
  if (!username) throw new Refusal(`no ${attributeMapping.username} attribute`);
  const mail = first(attributeMapping.email);
  return {
    issuer: settings.idpEntityId,
    nameId: assertion.nameId,
    username,
    email: mail && email.safeParse(mail).success ? mail : null,
    roleValues: attributeMapping.role ? (assertion.attributes.get(attributeMapping.role) ?? []) : [],
  };
}

/** Until the assertion's last NotOnOrAfter (plus the clock skew it is accepted with), or the request lifetime. */
function rememberUntil(assertion: AssertionFacts): Date {
  const latest = Math.max(...assertion.notOnOrAfter.map((date) => date.getTime()));
  return new Date((Number.isFinite(latest) ? latest : Date.now() + SSO_REQUEST_TTL_MS) + CLOCK_SKEW_MS);
}

/** Logs and audits a refusal; `error`, when node-saml or the database raised it, goes to the log with its stack. */
async function refused(services: Services, reason: string, clientIp: string, error?: unknown): Promise<void> {
  services.log.warn({ reason, clientIp, ...(error ? { err: error } : {}) }, 'single sign-on refused');
  await services.prisma.auditLog.create({
    data: { userId: null, username: 'sso', action: 'sso_login_failed', entityType: 'user', details: { reason, client_ip: clientIp } },
  });
}

const quote = (value: string | null) => (value === null ? 'none' : JSON.stringify(value.slice(0, 100)));

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, REASON_MAX);
}
