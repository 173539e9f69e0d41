import { useSearchParams } from 'react-router';

/** A page's state in its query string (so that a view can be shared): the parameters, and a setter of several at once. */
export function useUrlState(): [URLSearchParams, (changes: Record<string, string | undefined>) => void] {
  const [search, setSearch] = useSearchParams();
  const update = (changes: Record<string, string | undefined>) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) value ? next.set(key, value) : next.delete(key);
        return next;
      },
      { replace: true },
    );
  return [search, update];
}

/** A page offset kept in the query string: the number read from `name`, and the value that writes it (none for 0). */
export const offsetIn = (search: URLSearchParams, name = 'offset') => Math.max(0, Number(search.get(name)) || 0);
export const offsetValue = (offset: number) => (offset > 0 ? String(offset) : undefined);
