import { type FormEvent, useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

/** The header's search: sends the text to the results page (`/search?q=`). */
export function SearchField() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const current = pathname === '/search' ? (params.get('q') ?? '') : '';
  const [text, setText] = useState(current);
  useEffect(() => setText(current), [current]);
  function submit(event: FormEvent) {
    event.preventDefault();
    const query = text.trim();
    if (query) navigate(`/search?q=${encodeURIComponent(query)}`);
  }
  return (
    <search>
      <form className="shell-search" onSubmit={submit}>
        <label htmlFor="global-search" className="visually-hidden">
          Search techniques, tests and playbooks
        </label>
        <input
          id="global-search"
          type="search"
          value={text}
          maxLength={100}
          placeholder="Search T1059, names…"
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="button">
          Search
        </button>
      </form>
    </search>
  );
}
