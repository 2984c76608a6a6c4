import type { Translate } from '../../i18n/index.js';
import { discordTextToHtml, html, type SafeHtml } from '../html.js';
import { DEFAULT_BADGE_FIGURE } from './embeds.js';

/** Markdown's image text: a bracket or backslash in it would end or bend the `![…](…)` around it. */
function markdownText(text: string): string {
	return text.replace(/[\\[\]]/gu, (character) => `\\${character}`);
}

/** A double-quoted attribute's value: an apostrophe stays as it is, so the copied snippet reads as typed. */
function attribute(text: string): string {
	return text.replace(/&/gu, '&amp;').replace(/"/gu, '&quot;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
}

function snippet(caption: string, code: string): SafeHtml {
	return html`<figure class="snippet">
		<figcaption>${caption}</figcaption>
		<pre><code>${code}</code></pre>
	</figure>`;
}

/**
 * Copy-ready `<img>` and Markdown for the public page's badge and chart, from its address (`{WEB_PUBLIC_URL}/p/…`).
 * The snippet is text on the page: escaped once as the HTML it is, and again to be shown.
 */
export function embedSnippets(t: Translate, publicUrl: string, options: { headingLevel?: 2 | 3 } = {}): SafeHtml {
	const badgeUrl = `${publicUrl}/badge.svg?figure=${DEFAULT_BADGE_FIGURE}`;
	const chartUrl = `${publicUrl}/chart.png?days=30&metric=sends&theme=light`;
	const badgeAlt = t(`watch.figures.${DEFAULT_BADGE_FIGURE}`);
	const chartAlt = t('web.embed.chartAlt');
	const heading = t('web.embed.title');
	return html`<section class="embeds" aria-label="${heading}">
		${options.headingLevel === 3 ? html`<h3>${heading}</h3>` : html`<h2>${heading}</h2>`}
		<p>${t('web.embed.intro')}</p>
		${snippet(`${t('web.embed.badge')} · HTML`, `<img src="${attribute(badgeUrl)}" alt="${attribute(badgeAlt)}">`)}
		${snippet(`${t('web.embed.badge')} · Markdown`, `![${markdownText(badgeAlt)}](${badgeUrl})`)}
		${snippet(
			`${t('web.embed.chart')} · HTML`,
			`<img src="${attribute(chartUrl)}" alt="${attribute(chartAlt)}" width="800" height="400">`,
		)}
		${snippet(`${t('web.embed.chart')} · Markdown`, `![${markdownText(chartAlt)}](${chartUrl})`)}
		<p class="note">${discordTextToHtml(t('web.embed.options'))}</p>
	</section>`;
}
