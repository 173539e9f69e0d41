import { readSourceText, SourceUnavailableError, type SourceAccess } from '../../sources/location.ts';

/** A framework this service imports from the CTID Mappings Explorer. */
export interface FrameworkDefinition {
  /** Stable key, equal to the file's `metadata.mapping_framework`. */
  key: string;
  name: string;
}

export const FRAMEWORKS = {
  nist80053: { key: 'nist_800_53', name: 'NIST SP 800-53' },
  csaCcm: { key: 'csa_ccm', name: 'CSA Cloud Controls Matrix' },
} as const satisfies Record<string, FrameworkDefinition>;

export interface ControlData {
  controlId: string;
  name: string;
  family: string | null;
}

export interface MappingData {
  controlId: string;
  attackId: string;
  mappingType: string;
  comments: string | null;
}

export interface CtidSource {
  version: string;
  attackVersion: string | null;
  controls: Map<string, ControlData>;
  mappings: Map<string, MappingData>;
  /** Rows read, rows CTID marks non-mappable, rows skipped as malformed. */
  rows: { read: number; nonMappable: number; invalid: number };
}

interface MappingObject {
  capability_id?: unknown;
  capability_group?: unknown;
  capability_description?: unknown;
  mapping_type?: unknown;
  attack_object_id?: unknown;
  comments?: unknown;
  status?: unknown;
}

const ATTACK_ID = /^T\d{4}(\.\d{3})?$/;
const NON_MAPPABLE = 'non_mappable';

export const mappingKey = (controlId: string, attackId: string, mappingType: string) => `${controlId}|${attackId}|${mappingType}`;
const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

function parseJson(location: string, body: string): { metadata: Record<string, unknown>; objects: MappingObject[] } {
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch (error) {
    throw new SourceUnavailableError(location, 'not a JSON document', { cause: error });
  }
  const { metadata, mapping_objects: objects } = (document ?? {}) as { metadata?: unknown; mapping_objects?: unknown };
  if (!metadata || typeof metadata !== 'object' || !Array.isArray(objects)) {
    throw new SourceUnavailableError(location, 'not a Mappings Explorer file: metadata or mapping_objects missing');
  }
  return { metadata: metadata as Record<string, unknown>, objects: objects as MappingObject[] };
}

/**
 * Reads a CTID Mappings Explorer JSON file and checks that it maps `framework`. Controls come from every row
 * that names one (also non-mappable ones); a mapping is a (control, ATT&CK id, mapping type) with the
 * distinct comments of its rows joined.
 */
export async function readCtid(location: string, framework: FrameworkDefinition, access: SourceAccess): Promise<CtidSource> {
  const { metadata, objects } = parseJson(location, await readSourceText(location, access));
  if (metadata.mapping_framework !== framework.key) {
    throw new SourceUnavailableError(location, `expected a ${framework.key} mapping file, found another framework`);
  }
  const groups = (metadata.capability_groups && typeof metadata.capability_groups === 'object' ? metadata.capability_groups : {}) as Record<
    string,
    unknown
  >;
  const controls = new Map<string, ControlData>();
  const mappings = new Map<string, MappingData>();
  const comments = new Map<string, Set<string>>();
  const rows = { read: objects.length, nonMappable: 0, invalid: 0 };
  for (const object of objects) {
    if (!object || typeof object !== 'object') {
      rows.invalid += 1;
      continue;
    }
    const controlId = text(object.capability_id);
    const group = text(object.capability_group);
    if (controlId && controlId.length <= 50 && !controls.has(controlId)) {
      controls.set(controlId, {
        controlId,
        name: text(object.capability_description) ?? controlId,
        family: (group && text(groups[group])) ?? group,
      });
    }
    const mappingType = text(object.mapping_type);
    if (object.status === NON_MAPPABLE || mappingType === NON_MAPPABLE) {
      rows.nonMappable += 1;
      continue;
    }
    const attackId = text(object.attack_object_id);
    if (!controlId || controlId.length > 50 || !attackId || !ATTACK_ID.test(attackId) || !mappingType) {
      rows.invalid += 1;
      continue;
    }
    const key = mappingKey(controlId, attackId, mappingType);
    if (!mappings.has(key)) {
      mappings.set(key, { controlId, attackId, mappingType, comments: null });
      comments.set(key, new Set());
    }
    const comment = text(object.comments);
    if (comment) comments.get(key)!.add(comment);
  }
  for (const [key, mapping] of mappings) mapping.comments = [...comments.get(key)!].join('\n\n') || null;
  return {
    version: text(metadata.mapping_framework_version) ?? 'unknown',
    attackVersion: text(metadata.attack_version),
    controls,
    mappings,
    rows,
  };
}
