import { useMemo } from 'react';
import { createMarkdownRenderer } from './render.ts';

const render = createMarkdownRenderer(window);

/** Markdown from users or ATT&CK, sanitised: the one place the app sets HTML. */
export function Markdown({ source, className }: { source: string; className?: string }) {
  const html = useMemo(() => render(source), [source]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML comes from the sanitising renderer only
  return <div className={className ? `markdown ${className}` : 'markdown'} dangerouslySetInnerHTML={{ __html: html }} />;
}
