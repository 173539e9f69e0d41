export type Theme = 'light' | 'dark';

const STORED = 'violet-theme';

/** The theme the user saved, if any (their preferences' `theme`: light, dark or system). */
export function savedTheme(preferences: unknown): Theme | 'system' | undefined {
  const saved = (preferences as { theme?: string } | null | undefined)?.theme;
  return saved === 'light' || saved === 'dark' || saved === 'system' ? saved : undefined;
}

/** The theme on screen: the saved preference when it names one, else the system's (CSS follows prefers-color-scheme). */
export function applyTheme(preferences?: unknown) {
  const saved = savedTheme(preferences);
  const theme = saved === 'light' || saved === 'dark' ? saved : (localStorage.getItem(STORED) as Theme | null);
  if (saved === 'system') localStorage.removeItem(STORED);
  setTheme(saved === 'system' ? null : theme);
}

export function setTheme(theme: Theme | null) {
  if (theme) {
    document.documentElement.dataset.theme = theme;
    localStorage.setItem(STORED, theme);
  } else delete document.documentElement.dataset.theme;
}

export function currentTheme(): Theme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}
