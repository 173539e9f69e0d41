import type { Services } from '../services.ts';
import type { DynamicSchedule, JobDefinition } from './types.ts';

/** How a runner changes the schedules it holds. */
export interface ScheduleWrites {
  register(schedule: DynamicSchedule): Promise<void>;
  remove(id: string): Promise<void>;
}

/**
 * `missing`: registers the wanted schedules the runner does not hold and leaves the others as they are (the check
 * after Redis lost its data). `all`: also registers those held with another recurrence or data, and removes the ones
 * held that no record wants (the start and the periodic reconciliation).
 */
export type ScheduleSync = 'missing' | 'all';

const sameSchedule = (held: DynamicSchedule | undefined, wanted: DynamicSchedule) =>
  held !== undefined && JSON.stringify([held.repeat, held.data]) === JSON.stringify([wanted.repeat, wanted.data]);

/**
 * Brings one job's run-time schedules in line with the database while saves run beside it: each save registers or
 * removes its record's schedule once it has committed, so a pass that read the database before that commit must not
 * undo it.
 * - `held` is what the runner held before this pass read the database: a schedule registered after that (by a record
 *   created meanwhile) is not in it, and so is never taken for a stale one.
 * - Before removing anything or keeping what it registered, the pass reads the database again: a record unscheduled
 *   meanwhile does not get its schedule back, and one scheduled meanwhile keeps it.
 * `held` maps the ids of the job's schedules (its fixed one, under its name, is left alone) to their recurrence and
 * data where the runner knows them (an entry known by its id only is registered again by `all`). Returns the ids it
 * registered and left in place.
 */
export async function syncSchedules(
  definition: JobDefinition,
  services: Services,
  held: ReadonlyMap<string, DynamicSchedule | undefined>,
  writes: ScheduleWrites,
  sync: ScheduleSync,
): Promise<string[]> {
  if (!definition.schedules) return [];
  const wanted = await definition.schedules(services);
  const wantedIds = new Set(wanted.map(({ id }) => id));
  // The job's fixed schedule (registered under its name) is not one of its run-time ones.
  const stale = sync === 'all' ? [...held.keys()].filter((id) => id !== definition.name && !wantedIds.has(id)) : [];
  const registering = wanted.filter((schedule) =>
    sync === 'missing' ? !held.has(schedule.id) : !sameSchedule(held.get(schedule.id), schedule),
  );
  if (!registering.length && !stale.length) return [];
  for (const schedule of registering) await writes.register(schedule);
  const still = new Set((await definition.schedules(services)).map(({ id }) => id));
  for (const id of [...registering.map((schedule) => schedule.id), ...stale]) {
    if (!still.has(id)) await writes.remove(id);
  }
  return registering.map(({ id }) => id).filter((id) => still.has(id));
}
