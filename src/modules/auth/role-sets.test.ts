import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { Roles } from '../../auth/roles.ts';

const app = useTestApp();

describe('roleSets: the named role sets of the access rules, for clients that show only what a role may open', () => {
  it('lists every set of the server with its roles to any signed-in user, and nothing to anonymous callers', async () => {
    const answer = await app.graphql('{ roleSets { name roles } }', {}, await app.tokenFor('viewer'));
    expect(answer.data.roleSets).toEqual(Object.entries(Roles).map(([name, roles]) => ({ name, roles: [...roles] })));
    expect(answer.data.roleSets.find((set: { name: string }) => set.name === 'admin')).toEqual({ name: 'admin', roles: ['admin'] });
    expect(answer.data.roleSets.find((set: { name: string }) => set.name === 'leadsAndViewer')).toEqual({
      name: 'leadsAndViewer',
      roles: ['admin', 'red_lead', 'blue_lead', 'viewer'],
    });
    const anonymous = await app.graphql('{ roleSets { name } }');
    expect(anonymous.errors?.[0].extensions.code).toBe('NOT_AUTHENTICATED');
  });
});
