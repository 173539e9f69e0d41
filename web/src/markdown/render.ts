import createDOMPurify, { type WindowLike } from 'dompurify';
import { Marked, type Tokens } from 'marked';

/** The only link targets a rendered document may hold. */
export const SAFE_LINK = /^(?:https?:|mailto:)/i;

/** Bidi embedding, override and isolate controls: shown as visible escapes so they cannot reorder what follows. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

const ALLOWED_TAGS =
  'a p br hr h1 h2 h3 h4 h5 h6 ul ol li blockquote pre code em strong b i kbd sub sup del s table thead tbody tr th td'.split(' ');

/** Raw tags kept as tags when written exactly so, without attributes (ATT&CK writes <code>); any other raw HTML is text. */
const SIMPLE_TAG = /&lt;(\/?)(code|b|i|em|strong|kbd|sub|sup|br)\s*\/?&gt;/gi;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/**
 * Markdown to HTML: raw HTML is shown as text (so the browser never parses a handler or a source the user wrote; even
 * parsed in an inert document, Chromium reports an inline handler to the CSP), images become links to where they
 * point (nothing is loaded), task boxes text, headings two levels down (the page's sections are h2). The sanitiser
 * still checks everything after.
 */
function markdownParser() {
  const marked = new Marked({ gfm: true, breaks: false, async: false });
  marked.use({
    renderer: {
      html({ text, block }: Tokens.HTML | Tokens.Tag) {
        const shown = escapeHtml(text).replace(SIMPLE_TAG, (_tag, close: string, name: string) => `<${close}${name.toLowerCase()}>`);
        return block ? `<p>${shown}</p>` : shown;
      },
      heading({ tokens, depth }: Tokens.Heading) {
        const level = Math.min(depth + 2, 6);
        return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
      },
      checkbox({ checked }: Tokens.Checkbox) {
        return checked ? '☑ ' : '☐ ';
      },
      image({ href, text }: Tokens.Image) {
        const label = escapeHtml(text || href);
        return SAFE_LINK.test(href) ? `<a href="${escapeHtml(href)}">Image: ${label}</a>` : `Image: ${label}`;
      },
    },
  });
  return marked;
}

/**
 * A markdown renderer bound to a window (the browser's, or a test's): marked makes the HTML, DOMPurify keeps only
 * text formatting, lists, tables, code and links to http(s) or mailto, each with rel="noopener noreferrer".
 */
export function createMarkdownRenderer(window: WindowLike): (source: string) => string {
  const purify = createDOMPurify(window);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (!SAFE_LINK.test(href.trim())) node.removeAttribute('href');
      node.setAttribute('rel', 'noopener noreferrer');
      node.removeAttribute('target');
    }
  });
  const marked = markdownParser();
  return (source) => {
    const html = marked.parse(source.replace(BIDI_CONTROLS, (char) => `[U+${char.charCodeAt(0).toString(16).toUpperCase()}]`)) as string;
    return purify.sanitize(html, {
      ALLOWED_TAGS,
      ALLOWED_ATTR: ['href', 'title', 'align', 'start'],
      ALLOWED_URI_REGEXP: SAFE_LINK,
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: false,
    });
  };
}
