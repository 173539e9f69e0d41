import type { Importer } from '../data-sources/importer.ts';

export const importD3fend: Importer = async ({ location }) => {
  throw new Error(`importD3fend is not implemented yet (location ${location})`);
};
