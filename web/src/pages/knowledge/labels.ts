import type { LessonSeverity, PlaybookType } from '../../gql/graphql.ts';

export const PLAYBOOK_TYPES: { value: PlaybookType; label: string }[] = [
  { value: 'execution', label: 'Execution' },
  { value: 'detection', label: 'Detection' },
  { value: 'response', label: 'Response' },
  { value: 'hunting', label: 'Hunting' },
  { value: 'remediation', label: 'Remediation' },
];

export const SEVERITIES: { value: LessonSeverity; label: string }[] = [
  { value: 'critical', label: 'Critical' },
  { value: 'high', label: 'High' },
  { value: 'medium', label: 'Medium' },
  { value: 'low', label: 'Low' },
  { value: 'informational', label: 'Informational' },
];

export const typeLabel = (type: PlaybookType) => PLAYBOOK_TYPES.find((entry) => entry.value === type)?.label ?? type;
export const severityLabel = (severity: LessonSeverity) => SEVERITIES.find((entry) => entry.value === severity)?.label ?? severity;
export const dateOf = (iso: string) => new Date(iso).toLocaleString();
