import { z } from 'zod';
import { RemediationStatus, type TrackerKind } from '../../generated/prisma/enums.ts';
import type { RiskLevel } from '../risk/model.ts';
import type { IssueState } from './clients.ts';

/** Jira resolutions that close an issue without a fix. */
const WONT_FIX_RESOLUTIONS = new Set(["won't do", "won't fix", 'declined', 'duplicate', 'cannot reproduce']);

export const fieldMappingSchema = z
  .object({
    /** Risk level of the test's technique → the tracker's priority name (Jira) or a `priority:` label (GitHub). */
    priorities: z.partialRecord(z.enum(['critical', 'high', 'medium', 'low']), z.string().trim().min(1).max(100)).optional(),
    /** Labels added to every issue, beside the ATT&CK id. */
    labels: z.array(z.string().trim().min(1).max(100)).max(20).optional(),
  })
  .strict();
export type FieldMapping = z.infer<typeof fieldMappingSchema>;

export const statusMappingSchema = z.record(
  z.string().trim().min(1).max(100),
  z.enum(RemediationStatus, { error: `must be one of ${Object.keys(RemediationStatus).join(', ')}` }),
);
export type StatusMapping = z.infer<typeof statusMappingSchema>;

export const DEFAULT_PRIORITIES: Record<RiskLevel, string> = { critical: 'Highest', high: 'High', medium: 'Medium', low: 'Low' };

/**
 * The remediation status an issue's state stands for: the connection's status mapping by the tracker's status
 * name first (`Done`, `closed:not_planned`), then the defaults: Jira's status category (done, unless resolved as
 * won't do / duplicate) and GitHub's state and state_reason.
 */
export function remediationOf(kind: TrackerKind, issue: IssueState, mapping: StatusMapping): RemediationStatus {
  const mapped = Object.entries(mapping).find(([name]) => name.toLowerCase() === issue.status.toLowerCase())?.[1];
  if (mapped) return mapped;
  if (kind === 'github') {
    if (issue.category === 'open') return issue.assigneeAccountId ? 'in_progress' : 'pending';
    return issue.resolution === 'not_planned' || issue.resolution === 'duplicate' ? 'not_applicable' : 'completed';
  }
  if (issue.category === 'done')
    return issue.resolution && WONT_FIX_RESOLUTIONS.has(issue.resolution.toLowerCase()) ? 'not_applicable' : 'completed';
  return issue.category === 'indeterminate' ? 'in_progress' : 'pending';
}
