/**
 * How a page looks: whose name and mark it carries and its one colour. A brand's look comes from
 * its catalogue content (BRANDCOLOUR, BRANDLOGO); pages with no brand to show use the service's own.
 */
export interface PageLook {
  /** Printed in the page's header beside the mark. */
  readonly name: string;
  /** `#rrggbb`: the header's background under white text, and the colour of links on white. */
  readonly colour: string;
  /** An SVG document drawn as an image (a data: URI): it can run nothing and load nothing. */
  readonly logoSvg?: string;
}

/** The look of a page that may not name a brand (a link that opens nothing). */
export const SERVICE_LOOK: PageLook = { name: 'Travel insurance', colour: '#2f4858' };

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
export const isHexColour = (value: string): boolean => HEX_COLOUR.test(value);

/** WCAG 2 relative luminance of `#rrggbb`. */
function luminance(colour: string): number {
  const linear = (at: number) => {
    const channel = parseInt(colour.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(1) + 0.7152 * linear(3) + 0.0722 * linear(5);
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** What WCAG AA asks of normal text: the brand colour carries white text and is the links' colour on white. */
export const MIN_CONTRAST_ON_WHITE = 4.5;

/** Why a logo cannot be a page's mark, or undefined: an SVG document, small, drawing only itself. */
export function logoProblem(svg: string): string | undefined {
  if (svg.length > 8192) return 'the logo is over 8 KiB';
  if (!/^<svg\s[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/.test(svg)) {
    return 'the logo must be an <svg> element with xmlns="http://www.w3.org/2000/svg"';
  }
  if (!/^<svg\s[^>]*viewBox="[^"]+"/.test(svg)) return 'the logo needs a viewBox (it is drawn at the page’s size)';
  if (!svg.trimEnd().endsWith('</svg>')) return 'the logo must end with </svg>';
  if (/<script|<foreignObject|\son[a-z]+\s*=|(?:href|src)\s*=\s*["'](?!#)/i.test(svg)) {
    return 'the logo may not hold scripts, event handlers, foreign objects or references to other files';
  }
  return undefined;
}
