import type { DataSourceKind } from '../../generated/prisma/enums.ts';
import { importAttackEnterprise } from '../catalog/importer.ts';
import { importCsaCcm, importNist80053 } from '../compliance/importer.ts';
import { importD3fend } from '../countermeasures/importer.ts';
import { importSigma } from '../detection-rules/importer.ts';
import { importAtomicRedTeam } from '../test-templates/importer.ts';
import type { Importer } from '../../sources/importer.ts';

/** The importer of each kind of data source. */
export const importers: Record<DataSourceKind, Importer> = {
  attack_enterprise: importAttackEnterprise,
  d3fend: importD3fend,
  nist_800_53: importNist80053,
  csa_ccm: importCsaCcm,
  atomic_red_team: importAtomicRedTeam,
  sigma: importSigma,
};
