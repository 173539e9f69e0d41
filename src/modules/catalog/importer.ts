import type { Importer } from '../data-sources/importer.ts';

export const importAttackEnterprise: Importer = async ({ location }) => {
  throw new Error(`importAttackEnterprise is not implemented yet (location ${location})`);
};
