/**
 * Size classes of the text a field can return, taken from the longest value its write side accepts (the zod
 * schemas' `.max`). Catalog imports are bounded the same way by their parsers. A text field whose name is not in
 * the table is `long`: an unknown bound costs as the largest.
 */
export const TEXT_SIZE_CLASSES = {
  /** Names, identifiers, states, URLs' hosts: at most 256 characters. */
  short: { maxChars: 256, cost: 1 },
  /** Notes, messages, URLs, errors: at most 5,000 characters. */
  medium: { maxChars: 5_000, cost: 10 },
  /** Descriptions, summaries: at most 20,000 characters. */
  text: { maxChars: 20_000, cost: 40 },
  /** Procedures, rule and playbook contents, JSON documents, anything unbounded: 50,000 characters or more. */
  long: { maxChars: Number.POSITIVE_INFINITY, cost: 500 },
} as const;

export type TextSizeClass = keyof typeof TEXT_SIZE_CLASSES;

export const TEXT_COST = Object.fromEntries(Object.entries(TEXT_SIZE_CLASSES).map(([name, sizeClass]) => [name, sizeClass.cost])) as Record<
  TextSizeClass,
  number
>;

/** Text fields by name, with the write side's bound (every schema type uses these names with the same bound). */
const BOUNDED_TEXT: Record<string, Exclude<TextSizeClass, 'long'>> = {
  ...Object.fromEntries(
    [
      'name',
      'ttpId',
      'tactic',
      'title',
      'status',
      'username',
      'platform',
      'shortName',
      'externalId',
      'stixId',
      'techniqueName',
      'id',
      'entityId',
      'entityType',
      'period',
      'kind',
      'attackId',
      'key',
      'source',
      'displayName',
      'action',
      'computedAt',
      'prefix',
      'actorName',
      'attackVersion',
      'tacticId',
      'd3fendId',
      'parent',
      'topLevel',
      'ttpTechniqueId',
      'fromAddress',
      'smtpHost',
      'smtpUsername',
      'event',
      'email',
      'date',
      'toolUsed',
      'type',
      'controlId',
      'family',
      'mappingType',
      'version',
      'attackPathName',
      'recurrence',
      'engine',
      'ruleAuthor',
      'ruleExternalId',
      'ruleSource',
      'ruleTitle',
      'author',
      'license',
      'contentType',
      'fileName',
      'sha256Hash',
      'dueDate',
      'team',
      'role',
      'tokenType',
      'updatedBy',
      'driver',
      'parentTtpId',
      'createdById',
      'executor',
      'country',
      'trackerAccountId',
      'campaignName',
      'frameworkName',
      'triggeredById',
      'jobId',
      'trigger',
      'schedule',
      'subject',
      'idpEntityId',
      'spEntityId',
      'dataClassification',
      'to',
      'location',
      'committed',
      'secret',
      'accessToken',
      // lists of short items (tags, platforms, ids): a list of leaves counts its items
      'tags',
      'events',
      'tactics',
      'platforms',
      'aliases',
      'motivations',
      'techniqueIds',
      'ttpIds',
      'mappingTypes',
    ].map((field) => [field, 'short' as const]),
  ),
  ...Object.fromEntries(
    [
      'notes',
      'note',
      'error',
      'detail',
      'message',
      'reason',
      'url',
      'downloadUrl',
      'sourceUrl',
      'acsUrl',
      'idpSsoUrl',
      'metadataUrl',
      'disabledReason',
      'abortReason',
      'invalidatedReason',
      'outcomeNotes',
      'comments',
      'notice',
      'motivation',
      'references',
      'comments',
    ].map((field) => [field, 'medium' as const]),
  ),
  ...Object.fromEntries(
    [
      'description',
      'summary',
      'redSummary',
      'blueSummary',
      'redValidationNotes',
      'blueValidationNotes',
      'remediationSteps',
      'suggestedRemediation',
      'recommendations',
      'rootCause',
      'whatHappened',
      'procedureText',
    ].map((field) => [field, 'text' as const]),
  ),
  // OSINT feed items: ids and names as written, lists of ids, review states; links are URLs.
  ...Object.fromEntries(
    ['mentioned', 'feedName', 'mentionedTtps', 'mentionedGroups', 'mentionedSoftware', 'cves', 'validTransitions'].map((field) => [
      field,
      'short' as const,
    ]),
  ),
  link: 'medium',
};

const TEXT_TYPES = new Set(['String', 'JSON']);

/** The size class of a leaf field: every non-text scalar and enum is `short`. */
export function sizeClassOf(typeName: string, fieldName: string): TextSizeClass {
  return TEXT_TYPES.has(typeName) ? (BOUNDED_TEXT[fieldName] ?? 'long') : 'short';
}
