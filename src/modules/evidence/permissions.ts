import type { Principal } from '../../auth/access.ts';
import { Role, Roles } from '../../auth/roles.ts';
import { DomainError, ForbiddenError } from '../../errors.ts';
import type { Team, TestState } from '../../generated/prisma/enums.ts';
import { UPLOAD_STATES } from '../test-runs/states.ts';

/** Who may do what with evidence (the spec's "Who" column). */
export const evidenceRoles = {
  read: Roles.any,
  /** Per team: red evidence RL, RT, A; blue evidence BL, BT, A. */
  uploadAs: { red: Roles.red, blue: Roles.blue } satisfies Record<Team, readonly Role[]>,
  /** The upload row admits both teams' roles; the team check happens once the team is known. */
  upload: [Role.admin, Role.red_lead, Role.red_tech, Role.blue_lead, Role.blue_tech],
  /** The uploader, RL, BL, A: a technician passes the row and is then held to their own uploads. */
  delete: [Role.admin, Role.red_lead, Role.blue_lead, Role.red_tech, Role.blue_tech],
  /** Signed download links carry their own authorisation. */
  signedLink: 'public',
} as const;

/** The test's state does not allow the change (409). */
export class InvalidStateError extends DomainError {
  override readonly status = 409;
  override readonly code = 'INVALID_STATE';
}

export function assertMayUploadAs(principal: Principal, team: Team): void {
  const allowed: readonly Role[] = evidenceRoles.uploadAs[team];
  if (!allowed.includes(principal.role)) {
    throw new ForbiddenError(`Your role may not add ${team} team evidence`);
  }
}

export function assertUploadState(team: Team, state: TestState): void {
  if (!UPLOAD_STATES[team].includes(state)) {
    throw new InvalidStateError(`${team} team evidence can be added while the test is ${UPLOAD_STATES[team].join(', ')}; it is ${state}`);
  }
}

/** The teams as which `role` may add evidence to a test in `state` (the same checks an upload passes). */
export const uploadTeamsFor = (state: TestState, role: Role | undefined): Team[] =>
  (Object.keys(UPLOAD_STATES) as Team[]).filter(
    (team) => role !== undefined && (evidenceRoles.uploadAs[team] as readonly Role[]).includes(role) && UPLOAD_STATES[team].includes(state),
  );

const LEADS: readonly Role[] = Roles.leads;

/** Leads and admins delete any evidence, technicians only their own; a validated test's evidence is the admin's alone. */
export function assertMayDelete(principal: Principal, evidence: { uploadedById: string | null }, testState: TestState): void {
  if (!LEADS.includes(principal.role) && evidence.uploadedById !== principal.userId) {
    throw new ForbiddenError('Only the uploader, a lead or an admin may delete this evidence');
  }
  if (testState === 'validated' && principal.role !== Role.admin) {
    throw new InvalidStateError('The test is validated: only an admin may delete its evidence');
  }
}
