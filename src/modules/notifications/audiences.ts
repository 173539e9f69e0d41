import { Roles, type Role } from '../../auth/roles.ts';
import type { Db } from '../../db/client.ts';

/**
 * Who a notice goes to: a label for the docs, every role a member can have (a role gets the notice's
 * preference toggles exactly when it is listed here), and how the members are found from the event.
 */
export interface Audience<P> {
  label: string;
  roles: readonly Role[];
  users(payload: P, db: Db): Promise<string[]>;
}

const activeWithRoles = async (db: Db, roles: readonly Role[]) =>
  (await db.user.findMany({ where: { role: { in: [...roles] }, isActive: true }, select: { id: true } })).map((user) => user.id);

/** Every active user of these roles. */
export const everyoneWith = (label: string, roles: readonly Role[]): Audience<unknown> => ({
  label,
  roles,
  users: (_payload, db) => activeWithRoles(db, roles),
});

/** "The leads", wherever a notice says so: `Roles.leads` (admins, red leads, blue leads), the roles that may act as a lead. */
export const leads = everyoneWith('the leads (A, RL, BL)', Roles.leads);
export const admins = everyoneWith('every admin', Roles.admin);

/**
 * The creator of the event's test: only the roles that may create tests can be one (`testRoles.create`, held equal
 * by notices.test.ts: importing it here would tie this module to the ones whose events it reads).
 */
export const testCreator: Audience<{ testId: string }> = {
  label: "the test's creator",
  roles: Roles.leads,
  users: async ({ testId }, db) => {
    const test = await db.test.findUnique({ where: { id: testId }, select: { createdById: true } });
    return test ? [test.createdById] : [];
  },
};

/** The creator of the event's campaign: the roles that may create campaigns (`campaignRoles.create`, as above). */
export const campaignCreator: Audience<{ campaignId: string }> = {
  label: "the campaign's creator",
  roles: Roles.leads,
  users: async ({ campaignId }, db) => {
    const campaign = await db.campaign.findUnique({ where: { id: campaignId }, select: { createdById: true } });
    return campaign ? [campaign.createdById] : [];
  },
};

/** The owners of the event's techniques: any active user may own a technique. */
export const techniqueOwners: Audience<{ techniqueIds: string[] }> = {
  label: "the techniques' owners",
  roles: Roles.any,
  users: async ({ techniqueIds }, db) =>
    (
      await db.ownershipAssignment.findMany({
        where: { techniqueId: { in: techniqueIds } },
        select: { ownerId: true },
        distinct: ['ownerId'],
      })
    ).map((row) => row.ownerId),
};
