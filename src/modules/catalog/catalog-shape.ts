/**
 * The largest sizes the ATT&CK-shaped lists reach: lists computed from the whole catalog (heatmaps, coverage
 * reports, snapshots, scores) and lists of tactics. They are the complexity multipliers of those lists
 * (docs/graphql-limits.md); where a list is read from a table it is also capped at that size.
 */
export const CATALOG_SHAPE = {
  /** Techniques and sub-techniques together: Enterprise ATT&CK 17 has about 700, custom ones come on top. */
  techniques: 2000,
  /** Enterprise ATT&CK has 14 tactics. */
  tactics: 20,
  /** Parent techniques in one tactic: Defense Evasion, the largest, has about 45. */
  techniquesPerTactic: 60,
  /** Sub-techniques of one technique: the largest have about 15. */
  subTechniquesPerTechnique: 20,
} as const;
