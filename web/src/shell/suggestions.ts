import { useEffect, useState } from 'react';
import type { SuggestQuery } from '../gql/graphql.ts';

export interface Suggestion {
  key: string;
  kind: 'Technique' | 'Test' | 'Playbook' | 'All results';
  label: string;
  href: string;
}

/** What `search` found as the combobox's options, techniques first, then "All results" for the results page. */
export function suggestionsOf(found: SuggestQuery['search'], query: string): Suggestion[] {
  return [
    ...found.techniques.map(
      (technique): Suggestion => ({
        key: `technique-${technique.id}`,
        kind: 'Technique',
        label: `${technique.ttpId} ${technique.name}`,
        href: `/techniques/${encodeURIComponent(technique.ttpId)}`,
      }),
    ),
    ...found.tests.map((test): Suggestion => ({ key: `test-${test.id}`, kind: 'Test', label: test.name, href: `/tests/${test.id}` })),
    ...found.playbooks.map(
      (playbook): Suggestion => ({
        key: `playbook-${playbook.id}`,
        kind: 'Playbook',
        label: playbook.title,
        href: `/knowledge/playbooks/${encodeURIComponent(playbook.id)}`,
      }),
    ),
    { key: 'all', kind: 'All results', label: `Search for “${query}”`, href: `/search?q=${encodeURIComponent(query)}` },
  ];
}

/** How many suggestions there are, in words, for the polite status beside the list. */
export function suggestionCount(suggestions: Suggestion[]): string {
  const found = suggestions.filter((suggestion) => suggestion.kind !== 'All results').length;
  return found === 0 ? 'No suggestions' : found === 1 ? '1 suggestion' : `${found} suggestions`;
}

/** `value` once it has stayed the same for `delay` milliseconds. */
export function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
