import type { Importer } from '../data-sources/importer.ts';

export const importSigma: Importer = async ({ location }) => {
  throw new Error(`importSigma is not implemented yet (location ${location})`);
};
