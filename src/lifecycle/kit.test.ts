import { describe, expect, it } from 'vitest';
import { Roles } from '../auth/roles.ts';
import { defineLifecycle, whoColumn } from './kit.ts';

const door = defineLifecycle({
  noun: 'door',
  inState: (state: 'open' | 'closed' | 'locked') => `the door is ${state}`,
  states: { open: { passable: true }, closed: { passable: false }, locked: { passable: false } },
  transitions: [
    { action: 'close', path: 'close', from: 'open', to: 'closed', roles: Roles.any, audit: 'close_door', summary: 'open → closed' },
    { action: 'lock', path: 'lock', from: ['closed'], to: 'locked', roles: Roles.leads, audit: 'lock_door', summary: 'closed → locked' },
    { action: 'open', path: 'open', from: ['closed', 'locked'], to: ['open'], roles: Roles.admin, audit: 'open_door', summary: '→ open' },
    { action: 'slam', path: 'slam', from: 'open', to: 'closed', roles: Roles.any, audit: 'slam_door', summary: 'old', legacy: true },
  ],
});

describe('a lifecycle defined with the kit', () => {
  it('derives valid transitions (for a role too), the actions offered and the actions a role may take', () => {
    expect(door.stateNames).toEqual(['open', 'closed', 'locked']);
    expect(door.validTransitions('closed')).toEqual(['open', 'locked']);
    expect(door.validTransitions('closed', 'red_tech')).toEqual([]);
    expect(door.validTransitions('closed', 'red_lead')).toEqual(['locked']);
    expect(door.actionsFrom('open')).toEqual(['close', 'slam']);
    expect(door.actionsFor('open', 'viewer')).toEqual(['close']);
    expect(door.actionsFor('open', undefined)).toEqual([]);
    expect(door.statesWhere((rule) => !rule.passable)).toEqual(['closed', 'locked']);
  });

  it('works out the valid transitions of a state (and role) once, and shares them read-only', () => {
    const first = door.validTransitions('closed', 'red_lead');
    expect(door.validTransitions('closed', 'red_lead')).toBe(first);
    expect(door.validTransitions('closed')).not.toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // A state the table does not have (never stored, but not trusted either) is answered without being kept.
    const unknown = 'ajar' as 'open';
    expect(door.validTransitions(unknown)).toEqual([]);
    expect(door.validTransitions(unknown)).not.toBe(door.validTransitions(unknown));
  });

  it('answers INVALID_TRANSITION with the body of every lifecycle', () => {
    expect(() => door.assertFrom(door.transition('lock'), 'open')).toThrow(
      'Invalid transition: lock cannot move a door from open to locked. Valid transitions from open: closed',
    );
    const error = door.invalidTransition(door.transition('open'), 'open');
    expect(error.restBody()).toEqual({
      detail: {
        message: 'Invalid transition: open cannot move a door from open to open. Valid transitions from open: closed',
        code: 'INVALID_TRANSITION',
        current_state: 'open',
        target_state: 'open',
        valid_transitions: ['closed'],
      },
      code: 'INVALID_TRANSITION',
    });
  });

  it('answers an action outside its states with the allowed states', () => {
    const error = door.notAllowed('EDIT_NOT_ALLOWED', 'Painting', 'locked', ['open', 'closed']);
    expect(error).toMatchObject({
      status: 400,
      code: 'EDIT_NOT_ALLOWED',
      message: 'Painting is allowed only in open or closed; the door is locked',
    });
    expect(error.extra).toEqual({ current_state: 'locked', allowed_states: ['open', 'closed'] });
    expect(() => door.assertIn('EDIT_NOT_ALLOWED', 'Painting', 'open', ['open'])).not.toThrow();
  });

  it('writes role sets as the docs do', () => {
    expect(whoColumn(Roles.any)).toBe('Any');
    expect(whoColumn(Roles.allButViewer)).toBe('all but V');
    expect(whoColumn(Roles.red)).toBe('RL, RT, A');
    expect(whoColumn(Roles.leads)).toBe('RL, BL, A');
  });
});
