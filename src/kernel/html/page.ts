import { createHash } from 'node:crypto';
import { memoize } from '../cache/memoize.js';
import { Html, html } from './markup.js';
import { isHexColour, SERVICE_LOOK, type PageLook } from './look.js';

/**
 * The one layout of the service's browser pages (the customer's documents, the sandbox issuer's
 * 3-D Secure pages, the root): a header with the look's mark and name, one column that fits a
 * phone, no script. The only style is one inline <style> allowed by its hash in the page's own
 * Content-Security-Policy, so the same page has the same bytes and the same policy every time.
 */

// One column up to 44rem; white background so a brand colour that passes on white passes everywhere.
const BASE_CSS = [
  '*{box-sizing:border-box}',
  'body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}',
  'header{background:var(--brand);color:#fff}',
  '.bar,main,footer{max-width:44rem;margin:0 auto;padding:1rem}',
  '.bar{display:flex;align-items:center;gap:.75rem;padding-block:.75rem}',
  '.bar img{width:2.5rem;height:2.5rem;flex:none}',
  '.brand{font-weight:600;font-size:1.125rem;line-height:1.3}',
  'h1{font-size:1.5rem;line-height:1.25;margin:.25rem 0 1rem}',
  'h2{font-size:1.125rem;margin:1.5rem 0 .5rem}',
  'h3{font-size:1rem;margin:1rem 0 .25rem}',
  'a{color:var(--brand);text-underline-offset:.15em}',
  'a:focus-visible,button:focus-visible{outline:3px solid var(--brand);outline-offset:2px}',
  '.card{border:1px solid #d0d7de;border-radius:.5rem;padding:1rem;margin:0 0 1rem}.card>h2:first-child{margin-top:0}',
  '.facts{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.25rem 1rem;margin:0}',
  '.facts dt{color:#57606a}.facts dd{margin:0;overflow-wrap:anywhere}',
  '@media (max-width:32rem){.facts{grid-template-columns:1fr;gap:0}.facts dd{margin-bottom:.5rem}}',
  '.status{display:inline-block;padding:.125rem .625rem;border-radius:1rem;font-weight:600}',
  '.status-active{background:#dafbe1;color:#116329}.status-cancelled{background:#ffebe9;color:#a40e26}',
  '.files{list-style:none;padding:0;margin:0}.files li{padding:.5rem 0;border-top:1px solid #d0d7de}',
  '.files a{font-weight:600;overflow-wrap:anywhere}.meta{color:#57606a;font-size:.875rem}',
  '.notice{border-left:4px solid #a40e26;background:#ffebe9;padding:.75rem 1rem;margin:0 0 1rem}',
  '.amount{font-size:1.5rem;font-weight:700}',
  '.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:1rem 0}',
  '.button{display:inline-block;min-height:2.75rem;padding:.625rem 1.25rem;border:2px solid var(--brand);',
  'border-radius:.375rem;background:var(--brand);color:#fff;font:inherit;font-weight:600;text-decoration:none;cursor:pointer}',
  '.button.secondary{background:#fff;color:var(--brand)}',
  '.languages{display:flex;flex-wrap:wrap;gap:.5rem 1rem;margin:0 0 1rem;padding:0;list-style:none}',
  'footer{color:#57606a;font-size:.875rem;border-top:1px solid #d0d7de}',
  // Forms (the hosted screening page): one field per line, inputs as wide as the column allows.
  'fieldset{border:1px solid #d0d7de;border-radius:.5rem;margin:0 0 1rem;padding:.75rem 1rem;min-width:0}',
  'legend{font-weight:600;padding:0 .25rem}.field{margin:0 0 1rem}.field label{display:block;font-weight:600}',
  '.field input{width:100%;max-width:24rem;min-height:2.75rem;padding:.5rem;font:inherit;border:1px solid #57606a;border-radius:.25rem}',
  '.choice{display:flex;gap:.5rem;align-items:flex-start;padding:.375rem 0}',
  '.choice input{width:1.25rem;height:1.25rem;margin:.15rem 0 0;flex:none}.choice label{overflow-wrap:anywhere}',
  '.hint{color:#57606a;font-size:.875rem;margin:0 0 .25rem}.error{color:#a40e26;font-weight:600;margin:0 0 .25rem}',
  'input:focus-visible{outline:3px solid var(--brand);outline-offset:2px}',
  // Tables and selects (the operators' console): a wide table scrolls inside its box, never the page.
  '.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%}caption{text-align:left;color:#57606a}',
  'th,td{text-align:left;vertical-align:top;padding:.375rem .5rem;border-bottom:1px solid #d0d7de}',
  '.field select{min-height:2.75rem;padding:.5rem;font:inherit;border:1px solid #57606a;border-radius:.25rem;max-width:100%}',
].join('');

export interface PageInput {
  /** The page's language (its `lang` attribute). */
  readonly lang: string;
  readonly title: string;
  readonly look: PageLook;
  readonly main: Html;
  readonly footer?: Html;
  /** A page with a form posts to its own origin; every other page may post nowhere. */
  readonly postsForm?: boolean;
  /** A page another site may show in a frame (the issuer's challenge); all others refuse framing. */
  readonly framable?: boolean;
}

export interface RenderedPage {
  readonly body: string;
  /** The headers every page answer carries: its policy, no sniffing, no referrer, never stored. */
  readonly headers: Readonly<Record<string, string>>;
}

// A look's style, its hash and its mark are the same for every page of a brand: made once per look.
const styleOf = memoize((colour: string) => {
  // The colour goes into CSS unescaped: only a checked `#rrggbb` may.
  const css = `:root{--brand:${isHexColour(colour) ? colour : SERVICE_LOOK.colour}}${BASE_CSS}`;
  // Built outside any template: the hash is of these exact characters, whatever formats the source.
  return {
    element: new Html(`<style>${css}</style>`),
    hash: createHash('sha256').update(css, 'utf8').digest('base64'),
  };
}, 64);
const markOf = memoize(
  (svg: string) =>
    html`<img
      src="data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}"
      alt=""
      width="40"
      height="40"
    />`,
  64,
);

/** The page's text and its headers (a Content-Security-Policy naming the hash of its one style). */
export function renderPage(input: PageInput): RenderedPage {
  const { look } = input;
  const style = styleOf(look.colour);
  const mark = look.logoSvg ? markOf(look.logoSvg) : '';
  const body = html`<!DOCTYPE html>
    <html lang="${input.lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>${input.title} — ${look.name}</title>
        ${style.element}
      </head>
      <body>
        <header>
          <div class="bar">${mark}<span class="brand">${look.name}</span></div>
        </header>
        <main>${input.main}</main>
        ${input.footer ? html`<footer>${input.footer}</footer>` : ''}
      </body>
    </html> `;
  const policy = [
    "default-src 'none'",
    `style-src 'sha256-${style.hash}'`,
    'img-src data:',
    "base-uri 'none'",
    `form-action ${input.postsForm ? "'self'" : "'none'"}`,
    ...(input.framable ? [] : ["frame-ancestors 'none'"]),
  ].join('; ');
  return {
    body: body.text,
    headers: {
      'Content-Security-Policy': policy,
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      ...(input.framable ? {} : { 'X-Frame-Options': 'DENY' }),
      'Cache-Control': 'no-store',
    },
  };
}
