import createDOMPurify, { type WindowLike } from 'dompurify';
import { Marked, type Tokens } from 'marked';

/** The only link targets a rendered document may hold. */
export const SAFE_LINK = /^(?:https?:|mailto:)/i;

/** Bidi embedding, override and isolate controls: shown as visible escapes so they cannot reorder what follows. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

const ALLOWED_TAGS = 'a p br hr h1 h2 h3 h4 h5 h6 ul ol li blockquote pre code em strong del s table thead tbody tr th td'.split(' ');

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** Markdown to HTML: images become links to where they point (nothing is loaded), task boxes text; raw HTML is left to the sanitiser. */
function markdownParser() {
  const marked = new Marked({ gfm: true, breaks: false, async: false });
  marked.use({
    renderer: {
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
