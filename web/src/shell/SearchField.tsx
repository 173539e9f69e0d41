import { type FormEvent, type KeyboardEvent, useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { type Suggestion, suggestionCount, suggestionsOf, useDebounced } from './suggestions.ts';

/** Characters typed before suggestions are asked for. */
export const SUGGEST_MIN_LENGTH = 2;
/** Quiet time after the last keystroke before suggestions are asked for, in milliseconds. */
export const SUGGEST_DELAY = 200;

const SuggestDocument = graphql(`
  query Suggest($query: String!) {
    search(query: $query, limit: 5) {
      techniques { id ttpId name }
      tests { id name }
      playbooks { id title }
    }
  }
`);

const LISTBOX = 'search-suggestions';
const optionId = (index: number) => `search-suggestion-${index}`;

/**
 * The header's search, an ARIA combobox: as you type (at least two characters, after a pause) it suggests
 * techniques, tests and playbooks; Up and Down move through them, Enter opens the one chosen (or the results page,
 * `/search?q=`, when none is), Escape closes the list. An answer to an earlier text is never shown: urql drops the
 * request when the text changes, and an answer is used only if it is for the text being suggested.
 */
export function SearchField() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const current = pathname === '/search' ? (params.get('q') ?? '') : '';
  const [text, setText] = useState(current);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  useEffect(() => setText(current), [current]);

  const typed = text.trim();
  const asked = useDebounced(typed, SUGGEST_DELAY);
  const wanted = asked.length >= SUGGEST_MIN_LENGTH && asked === typed;
  const [answer] = useQuery({ query: SuggestDocument, variables: { query: asked }, pause: !wanted });
  const fresh = wanted && answer.operation?.variables.query === asked ? answer.data : undefined;
  const suggestions: Suggestion[] = fresh ? suggestionsOf(fresh.search, asked) : [];
  const expanded = open && suggestions.length > 0;

  function go(suggestion: Suggestion) {
    setOpen(false);
    setActive(-1);
    if (suggestion.kind !== 'All results') setText('');
    navigate(suggestion.href);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (expanded && active >= 0 && suggestions[active]) return go(suggestions[active]);
    setOpen(false);
    if (typed) navigate(`/search?q=${encodeURIComponent(typed)}`);
  }

  function keyDown(event: KeyboardEvent<HTMLInputElement>) {
    const count = suggestions.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (count === 0) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      if (!expanded) {
        setOpen(true);
        setActive(step === 1 ? 0 : count - 1);
      } else setActive(active < 0 && step === -1 ? count - 1 : (active + step + count) % count);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  }

  return (
    <search className="shell-search-area">
      <form className="shell-search" onSubmit={submit}>
        <label htmlFor="global-search" className="visually-hidden">
          Search techniques, tests and playbooks
        </label>
        <input
          id="global-search"
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={LISTBOX}
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          autoComplete="off"
          value={text}
          maxLength={100}
          placeholder="Search T1059, names…"
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={keyDown}
          onBlur={() => setOpen(false)}
        />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      <div id={LISTBOX} role="listbox" aria-label="Suggestions" className="suggestions" hidden={!expanded}>
        {expanded &&
          suggestions.map((suggestion, index) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard reaches options from the combobox (aria-activedescendant).
            <div
              key={suggestion.key}
              id={optionId(index)}
              role="option"
              tabIndex={-1}
              aria-selected={index === active}
              className="suggestion text"
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => go(suggestion)}
            >
              <span className="suggestion-kind">{suggestion.kind}</span> <bdi>{suggestion.label}</bdi>
            </div>
          ))}
      </div>
      <p role="status" className="visually-hidden">
        {open && fresh ? suggestionCount(suggestions) : ''}
      </p>
    </search>
  );
}
