import { contrastRatio, isHexColour, logoProblem, MIN_CONTRAST_ON_WHITE } from '../kernel/html/look.js';
import type { Report } from './check-report.js';
import type { LoadedBrand } from './load.js';

/** The content items that give a brand's pages their look (src/kernel/html/look.ts). */
export const BRAND_LOOK_ITEMS = { colour: 'BRANDCOLOUR', logo: 'BRANDLOGO' } as const;

/**
 * brand.yaml's look items, in any language: BRANDCOLOUR a `#rrggbb` that white text and links on
 * white can be read in (WCAG AA), BRANDLOGO an SVG document that draws only itself.
 */
export function checkBrandLook({ brand }: LoadedBrand, report: Report): void {
  for (const [lang, items] of Object.entries(brand.value.contentItems)) {
    items.forEach((item, i) => {
      const at = ['contentItems', lang, i, 'content'];
      if (item.type === BRAND_LOOK_ITEMS.colour) {
        if (!isHexColour(item.content)) report(brand, at, `BRANDCOLOUR '${item.content}' must be #rrggbb`);
        else if (contrastRatio(item.content, '#ffffff') < MIN_CONTRAST_ON_WHITE) {
          const ratio = contrastRatio(item.content, '#ffffff').toFixed(2);
          report(brand, at, `BRANDCOLOUR ${item.content} has a contrast of ${ratio}:1 with white; at least 4.5:1 is needed`);
        }
      }
      if (item.type === BRAND_LOOK_ITEMS.logo) {
        const problem = logoProblem(item.content);
        if (problem) report(brand, at, `BRANDLOGO: ${problem}`);
      }
    });
  }
}
