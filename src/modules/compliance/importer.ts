import type { Importer } from '../data-sources/importer.ts';

export const importNist80053: Importer = async ({ location }) => {
  throw new Error(`importNist80053 is not implemented yet (location ${location})`);
};

export const importCsaCcm: Importer = async ({ location }) => {
  throw new Error(`importCsaCcm is not implemented yet (location ${location})`);
};
