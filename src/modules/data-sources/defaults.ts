import type { Config } from '../../config.ts';
import { DataSourceKind } from '../../generated/prisma/enums.ts';
import { D3FEND_DEFAULT_LOCATION } from '../countermeasures/d3fend.ts';

export interface DataSourceDefaults {
  name: string;
  /** Public location used unless the variable below is set. */
  location: string;
  /** Configuration variable that replaces the public location. */
  variable: keyof Config & `${string}_SOURCE`;
  /** Cron pattern, UTC. Staggered so that ATT&CK, which the others refer to, comes first. */
  schedule: string;
  /** The licence of the feed's data and the notice shown wherever the data is shown. */
  licence: DataLicence;
}

export interface DataLicence {
  name: string;
  url: string;
  notice: string;
}

const ATTACK_LICENCE: DataLicence = {
  name: 'MITRE ATT&CK Terms of Use',
  url: 'https://attack.mitre.org/resources/legal-and-branding/terms-of-use/',
  notice:
    '© The MITRE Corporation. This work is reproduced and distributed with the permission of The MITRE Corporation. ATT&CK® is a registered trademark of The MITRE Corporation.',
};
const CTID_LICENCE: DataLicence = {
  name: 'Apache-2.0',
  url: 'http://www.apache.org/licenses/LICENSE-2.0',
  notice: '© 2024 MITRE. Center for Threat-Informed Defense Mappings Explorer, licensed under the Apache License, Version 2.0.',
};

const CTID = 'https://raw.githubusercontent.com/center-for-threat-informed-defense/mappings-explorer/main/mappings';

/** Every kind of data source: its name, public location, overriding variable and default schedule. */
export const DATA_SOURCE_DEFAULTS: Record<DataSourceKind, DataSourceDefaults> = {
  attack_enterprise: {
    name: 'ATT&CK Enterprise',
    location: 'https://raw.githubusercontent.com/mitre-attack/attack-stix-data/master/enterprise-attack/enterprise-attack.json',
    variable: 'ATTACK_ENTERPRISE_SOURCE',
    schedule: '0 3 * * 0',
    licence: ATTACK_LICENCE,
  },
  d3fend: {
    name: 'D3FEND',
    // D3FEND publishes no file in the mapping layout read here: an installation places (or serves) one.
    location: D3FEND_DEFAULT_LOCATION,
    variable: 'D3FEND_SOURCE',
    schedule: '15 3 * * 0',
    licence: {
      name: 'MIT',
      url: 'https://d3fend.mitre.org/',
      notice:
        'MITRE D3FEND™, Copyright (c) 2022 The MITRE Corporation, MIT License; use of the D3FEND knowledge graph is subject to the D3FEND Terms of Use. D3FEND™ is a trademark of The MITRE Corporation.',
    },
  },
  nist_800_53: {
    name: 'NIST SP 800-53 rev5 mappings',
    location: `${CTID}/nist_800_53/attack-16.1/nist_800_53-rev5/enterprise/nist_800_53-rev5_attack-16.1-enterprise.json`,
    variable: 'NIST_800_53_SOURCE',
    schedule: '30 3 * * 0',
    licence: CTID_LICENCE,
  },
  csa_ccm: {
    name: 'CSA Cloud Controls Matrix mappings',
    location: `${CTID}/csa_ccm/attack-17.1/csa_ccm-4.1/enterprise/csa_ccm-4.1_attack-17.1-enterprise.json`,
    variable: 'CSA_CCM_SOURCE',
    schedule: '45 3 * * 0',
    licence: CTID_LICENCE,
  },
  atomic_red_team: {
    name: 'Atomic Red Team',
    location: 'https://raw.githubusercontent.com/redcanaryco/atomic-red-team/master/atomics',
    variable: 'ATOMIC_RED_TEAM_SOURCE',
    schedule: '0 4 * * *',
    licence: {
      name: 'MIT',
      url: 'https://github.com/redcanaryco/atomic-red-team/blob/master/LICENSE.txt',
      notice: 'Atomic Red Team, Copyright (c) 2018 Red Canary, Inc., MIT License.',
    },
  },
  sigma: {
    name: 'Sigma rules',
    location: 'https://github.com/SigmaHQ/sigma/releases/latest/download/sigma_all_rules.zip',
    variable: 'SIGMA_SOURCE',
    schedule: '30 4 * * *',
    licence: {
      name: 'DRL-1.1',
      url: 'https://github.com/SigmaHQ/Detection-Rule-License',
      notice:
        'Sigma rules by SigmaHQ and their authors, under the Detection Rule License 1.1: every rule, and every match derived from it, keeps its author and id.',
    },
  },
};

export const DATA_SOURCE_KINDS = Object.values(DataSourceKind) as DataSourceKind[];

/** The location a new row of this kind starts with: the configured variable, else the public default. */
export function configuredLocation(config: Config, kind: DataSourceKind): string {
  const defaults = DATA_SOURCE_DEFAULTS[kind];
  return config[defaults.variable]?.trim() || defaults.location;
}

/** The scheduler entry id of a data source, e.g. `data-source:sigma`. */
export const scheduleIdOf = (kind: DataSourceKind) => `data-source:${kind}`;
