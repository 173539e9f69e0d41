import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The public reference data the tests import (ATT&CK bundles, D3FEND and CTID mappings, Atomic Red Team, Sigma):
 * `REFERENCE_DATA_DIR`, else `shared/data` beside the checkout, else the workstation's copy.
 */
export const REFERENCE_DATA =
  process.env.REFERENCE_DATA_DIR ??
  [resolve(import.meta.dirname, '../../../shared/data'), '/work/shared/data'].find((candidate) => existsSync(candidate)) ??
  '/work/shared/data';

/** A path inside the reference data, e.g. `referenceData('attack', 'enterprise-attack-18.1.json')`. */
export const referenceData = (...parts: string[]) => join(REFERENCE_DATA, ...parts);
