import { useEffect, useState } from 'react';

/** The colours of the charts, resolved from the theme's CSS variables (ECharts needs concrete colours). */
export interface Palette {
  series: [string, string, string];
  text: string;
  muted: string;
  grid: string;
}

const VARIABLES = ['--chart-1', '--chart-2', '--chart-3', '--text', '--muted', '--border'] as const;

/** Resolves each variable through a probe element: the computed colour has light-dark() already decided. */
function readPalette(): Palette {
  const probe = document.createElement('span');
  probe.hidden = true;
  document.body.append(probe);
  const [one, two, three, text, muted, grid] = VARIABLES.map((name) => {
    probe.style.color = `var(${name})`;
    return getComputedStyle(probe).color;
  });
  probe.remove();
  return { series: [one, two, three], text, muted, grid };
}

/** The palette of the theme on screen, read again whenever the theme changes (saved choice or system scheme). */
export function usePalette(): Palette {
  const [palette, setPalette] = useState(readPalette);
  useEffect(() => {
    const refresh = () => setPalette(readPalette());
    const observer = new MutationObserver(refresh);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const scheme = matchMedia('(prefers-color-scheme: dark)');
    scheme.addEventListener('change', refresh);
    return () => {
      observer.disconnect();
      scheme.removeEventListener('change', refresh);
    };
  }, []);
  return palette;
}
