import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ALERT_STATES, alertLifecycle } from '../modules/alerts/lifecycle.ts';
import { executionLifecycle } from '../modules/attack-paths/state-machine.ts';
import { campaignLifecycle } from '../modules/campaigns/state-machine.ts';
import { type VALIDATION_STATES, validationLifecycle } from '../modules/detection-lifecycle/validation-states.ts';
import { type OSINT_REVIEW_STATES, osintReviewLifecycle } from '../modules/osint/lifecycle.ts';
import { testLifecycle } from '../modules/test-runs/state-machine.ts';
import { type TRACKER_LINK_STATES, trackerLinkLifecycle } from '../modules/tracker/lifecycle.ts';
import { listOf, whoColumn, type TransitionRow } from './kit.ts';

type AnyLifecycle = {
  stateNames: readonly string[];
  states: Readonly<Record<string, unknown>>;
  transitions: readonly TransitionRow[];
};

const yesNo = (value: boolean) => (value ? 'yes' : 'no');
const listed = (values: readonly string[]) => (values.length ? values.join(', ') : '—');

/** Each lifecycle's docs page, and how the columns of its state table are written from the state table. */
const PAGES: { page: string; lifecycle: AnyLifecycle; stateColumns: Record<string, (rule: never, state: string) => string> }[] = [
  {
    page: 'docs/test-workflow.md',
    lifecycle: testLifecycle,
    stateColumns: {
      Turn: (rule: (typeof testLifecycle.states)['draft']) => rule.turn ?? '—',
      'Timer runs': (rule: (typeof testLifecycle.states)['draft']) => yesNo(rule.timed),
      Edits: (rule: (typeof testLifecycle.states)['draft']) => listed(rule.edits),
      Evidence: (rule: (typeof testLifecycle.states)['draft']) => listed(rule.evidence),
      Decided: (rule: (typeof testLifecycle.states)['draft']) => yesNo(rule.decided),
    },
  },
  {
    page: 'docs/campaigns.md',
    lifecycle: campaignLifecycle,
    stateColumns: {
      'Definition editable': (rule: (typeof campaignLifecycle.states)['draft']) => yesNo(rule.editable),
      Terminal: (rule: (typeof campaignLifecycle.states)['draft']) => yesNo(rule.terminal),
    },
  },
  {
    page: 'docs/attack-paths.md',
    lifecycle: executionLifecycle,
    stateColumns: {
      'Record outcomes': (rule: (typeof executionLifecycle.states)['pending']) => yesNo(rule.recordsOutcomes),
      'Create tests': (rule: (typeof executionLifecycle.states)['pending']) => yesNo(rule.createsTests),
      Summary: (rule: (typeof executionLifecycle.states)['pending']) => yesNo(rule.reportsSummary),
    },
  },
  {
    page: 'docs/tracker.md',
    lifecycle: trackerLinkLifecycle,
    stateColumns: {
      'Open in the tracker': (rule: (typeof TRACKER_LINK_STATES)['open']) => yesNo(rule.open),
      Remediation: (rule: (typeof TRACKER_LINK_STATES)['open']) => rule.remediation ?? '—',
    },
  },
  {
    page: 'docs/alerts.md',
    lifecycle: alertLifecycle,
    stateColumns: { Firing: (rule: (typeof ALERT_STATES)['open']) => yesNo(rule.firing) },
  },
  {
    page: 'docs/osint.md',
    lifecycle: osintReviewLifecycle,
    stateColumns: { 'Awaits review': (rule: (typeof OSINT_REVIEW_STATES)['flagged']) => yesNo(rule.awaitsReview) },
  },
  {
    page: 'docs/detection-lifecycle.md',
    lifecycle: validationLifecycle,
    stateColumns: Object.fromEntries(
      (['validUntil', 'invalidatedAt'] as const).map((end) => [
        end === 'validUntil' ? '`valid_until` passed' : '`invalidated_at` passed',
        (rule: (typeof VALIDATION_STATES)['fresh']) =>
          rule.reached.includes(end) ? 'yes' : rule.notReached.includes(end) ? 'no' : 'either',
      ]),
    ),
  },
];

/** Every markdown table of a page: its header cells and its rows' cells. */
function tablesOf(markdown: string): { header: string[]; rows: string[][] }[] {
  const tables: string[][] = [];
  let current: string[] | null = null;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('|')) (current ??= tables[tables.push([]) - 1]).push(line);
    else current = null;
  }
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
  return tables.map(([header, , ...rows]) => ({ header: cells(header), rows: rows.map(cells) }));
}

const list = (cell: string) => cell.split(/,\s*|\s+or\s+/).filter(Boolean);
const code = (cell: string) => /`([^`]+)`/.exec(cell)?.[1] ?? cell;

describe.each(PAGES)('the lifecycle tables of $page', ({ page, lifecycle, stateColumns }) => {
  const tables = tablesOf(readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8'));

  it('has the transition table of the code: actions, mutations, from, to and who', () => {
    const table = tables.find((candidate) => candidate.header[0].startsWith('Action'));
    expect(table, 'a table whose first column is "Action …"').toBeDefined();
    const column = (name: string) => table!.header.indexOf(name);
    const written = table!.rows.map((row) => ({
      action: code(row[0]),
      mutation: column('GraphQL mutation') >= 0 ? code(row[column('GraphQL mutation')]) : undefined,
      from: list(row[column('From')]),
      to: list(row[column('To')]),
      who: row[column('Who')],
    }));
    const expected = lifecycle.transitions.map((row) => ({
      action: row.path ?? row.action,
      mutation: column('GraphQL mutation') >= 0 ? (row.mutation ?? '—') : undefined,
      from: [...listOf(row.from)],
      to: [...listOf(row.to)],
      who: row.roles.length ? whoColumn(row.roles) : '—',
    }));
    expect(written).toEqual(expected);
  });

  it('has the state table of the code, in lifecycle order, with its per-state rules', () => {
    const table = tables.find((candidate) => ['State', 'Status'].includes(candidate.header[0]) && candidate.header[1] in stateColumns);
    expect(table, 'a table whose first column is "State" or "Status"').toBeDefined();
    const headers = table!.header.slice(1);
    expect(headers.sort()).toEqual(Object.keys(stateColumns).sort());
    const written = table!.rows.map((row) => Object.fromEntries(table!.header.map((header, index) => [header, row[index]])));
    const expected = lifecycle.stateNames.map((state) => ({
      [table!.header[0]]: state,
      ...Object.fromEntries(Object.entries(stateColumns).map(([header, cell]) => [header, cell(lifecycle.states[state] as never, state)])),
    }));
    expect(written).toEqual(expected);
  });
});
