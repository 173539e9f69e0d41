import { Moon, Sun } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../gql';
import { useSession } from '../session.tsx';
import { currentTheme, savedTheme, setTheme, type Theme } from '../theme.ts';

const SaveThemeDocument = graphql(`
  mutation SaveTheme($preferences: JSON!) {
    updateMyPreferences(preferences: $preferences)
  }
`);

/** Switches between light and dark and saves the choice in the user's preferences. */
export function ThemeToggle() {
  const { viewer } = useSession();
  const [theme, setShown] = useState<Theme>(() => {
    const saved = savedTheme(viewer.preferences);
    return saved === 'light' || saved === 'dark' ? saved : currentTheme();
  });
  const [, save] = useMutation(SaveThemeDocument);
  // The profile's preferences form may change the theme too: follow <html data-theme>.
  useEffect(() => {
    const observer = new MutationObserver(() => setShown(currentTheme()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      onClick={() => {
        setTheme(next);
        setShown(next);
        void save({ preferences: { theme: next } });
      }}
    >
      {theme === 'dark' ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
    </button>
  );
}
