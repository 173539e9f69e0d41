import type { Importer } from '../data-sources/importer.ts';

export const importAtomicRedTeam: Importer = async ({ location }) => {
  throw new Error(`importAtomicRedTeam is not implemented yet (location ${location})`);
};
