import type { SiteView } from '../../lib/api/schemas/identity-check';
import type { PresentedIdentity } from './presented';
import type { ScopeReading } from './scope-reading';

const cut = (text: string, max: number) => text.slice(0, max);
const MAX_LANGUAGES = 10;

/** What any site sees, as the check's page read it (its values cut to the answer's bounds: a page wrote them). */
export function siteView(presented: PresentedIdentity, page: ScopeReading): SiteView {
  const { exit } = presented;
  return {
    ip: exit ? cut(exit.ip, 64) : null,
    place: exit ? cut([exit.city, exit.country].filter(Boolean).join(', '), 200) : null,
    timezone: cut(String(page.timezone), 64),
    languages: page.languages.slice(0, MAX_LANGUAGES).map((language) => cut(String(language), 35)),
    user_agent: cut(String(page.user_agent), 500),
    screen: page.screen && {
      width: Number(page.screen.width),
      height: Number(page.screen.height),
      pixel_ratio: Number(page.screen.pixel_ratio),
    },
    gpu: page.webgl ? cut(String(page.webgl.renderer), 300) : null,
  };
}
