// The manage page's Webhooks section: each webhook as its host and last 4 characters, its format, events and state
// (why it stopped), its last deliveries, and a remove button. Adding stays with `/webhook add`: the signing secret
// is shown once, privately, there.
import type { Translate } from '../../i18n/index.js';
import { describeDeliveryStatus, describeDisabled } from '../../webhooks/describe-webhook.js';
import type { WebhookListing } from '../../webhooks/webhook-actions.js';
import { MAX_WEBHOOKS_PER_SERVER } from '../../webhooks/webhook-record.js';
import { html, type SafeHtml } from '../html.js';

export interface ManageWebhooksData {
	t: Translate;
	locale: string;
	/** Where the section's forms post: `/servers/{id}/webhooks` with the page's `?lang=`. */
	action: string;
	webhooks: readonly WebhookListing[];
}

function deliveryTime(locale: string, at: number): string {
	return `${new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
}

function deliveriesTable(page: ManageWebhooksData, listing: WebhookListing): SafeHtml {
	const { t } = page;
	if (listing.deliveries.length === 0) return html`<p class="empty">${t('webhook.web.noDeliveries')}</p>`;
	return html`<table class="deliveries">
		<caption>
			${t('webhook.web.deliveries')}
		</caption>
		<thead>
			<tr>
				<th scope="col">${t('webhook.web.time')}</th>
				<th scope="col">${t('webhook.web.event')}</th>
				<th scope="col">${t('webhook.web.status')}</th>
			</tr>
		</thead>
		<tbody>
			${listing.deliveries.map(
				(entry) =>
					html`<tr>
						<td>${deliveryTime(page.locale, entry.at)}</td>
						<td>${entry.type}</td>
						<td>${describeDeliveryStatus(t, entry)}</td>
					</tr>`,
			)}
		</tbody>
	</table>`;
}

export function webhooksManageSection(page: ManageWebhooksData): SafeHtml {
	const { t } = page;
	const count = { count: String(page.webhooks.length), max: String(MAX_WEBHOOKS_PER_SERVER) };
	return html`<section id="webhooks" class="manage">
		<h2>${t('webhook.web.heading')}</h2>
		<p>${t('webhook.listHeader', count).replaceAll('**', '')}</p>
		<p>${t('webhook.web.intro')}</p>
		${
			page.webhooks.length === 0
				? html`<p class="empty">${t('webhook.web.none')}</p>`
				: html`<ul class="manage-list">
						${page.webhooks.map(
							(listing) =>
								html`<li>
									<span id="webhook-${listing.record.id}"
										><span class="row-title">${listing.record.hint}</span>
										<span class="row-detail"
											>${t(`webhook.formats.${listing.record.format}`)} ·
											${t(`webhook.events.${listing.record.events}`)} ·
											${
												listing.record.disabled
													? t('webhook.stateDisabled', { reason: describeDisabled(t, listing.record.disabled) })
													: t('webhook.stateEnabled')
											}</span
										></span
									>
									<form method="post" action="${page.action}" class="inline">
										<input type="hidden" name="action" value="remove" />
										<input type="hidden" name="webhook" value="${listing.record.id}" />
										<button type="submit" class="danger" aria-describedby="webhook-${listing.record.id}">
											${t('webhook.web.remove')}
										</button>
									</form>
									${deliveriesTable(page, listing)}
								</li>`,
						)}
					</ul>`
		}
	</section>`;
}
