import type { Services } from '../../services.ts';

/** ATT&CK Enterprise releases (version, publication day): used to tell which release a catalog came from. */
const RELEASES: readonly (readonly [string, string])[] = [
  ['13.0', '2023-04-25'],
  ['13.1', '2023-05-09'],
  ['14.0', '2023-10-31'],
  ['14.1', '2023-11-14'],
  ['15.0', '2024-04-23'],
  ['15.1', '2024-05-02'],
  ['16.0', '2024-10-31'],
  ['16.1', '2024-11-12'],
  ['17.0', '2025-04-22'],
  ['17.1', '2025-05-06'],
  ['18.0', '2025-10-28'],
  ['18.1', '2025-11-13'],
  ['19.0', '2026-04-28'],
];

const major = (version: string) => version.split('.')[0];
const LATEST_KNOWN = major(RELEASES[RELEASES.length - 1][0]);
const VERSIONED_FILE = /enterprise-attack-(\d+)\.\d+/i;

/** The release a catalog whose newest object was modified at `newest` came from: the first one published since. */
export function releaseOf(newest: Date | null): string {
  if (!newest) return LATEST_KNOWN;
  const release = RELEASES.find(([, day]) => newest.getTime() <= new Date(`${day}T23:59:59.999Z`).getTime());
  return release ? major(release[0]) : LATEST_KNOWN;
}

/**
 * The ATT&CK major version of the catalog (a layer's `versions.attack`): from a versioned bundle name in the
 * attack_enterprise source location, else from the newest `modified` among the ATT&CK techniques; the newest
 * release this table knows when neither tells.
 */
export async function catalogAttackVersion(services: Services): Promise<string> {
  const [source, newest] = await Promise.all([
    services.prisma.dataSource.findUnique({ where: { kind: 'attack_enterprise' }, select: { location: true } }),
    services.prisma.technique.aggregate({ where: { isCustom: false }, _max: { attackModified: true } }),
  ]);
  const named = source ? VERSIONED_FILE.exec(source.location) : null;
  return named ? named[1] : releaseOf(newest._max.attackModified);
}
