// The controls of the manage page's forms: selects of choices, the server's channels and roles as Discord lists them.
import { channelTypesFor, type ChannelUse } from '../../channel-kinds.js';
import type { Translate } from '../../i18n/index.js';
import type { ChannelFacts, RoleFacts } from '../bot-guilds.js';
import { escapeHtml, html, SafeHtml } from '../html.js';

interface Choice {
	value: string;
	label: string;
}

export function select(
	id: string,
	name: string,
	label: string,
	choices: Choice[],
	current: string,
	options: { required?: boolean } = {},
): SafeHtml {
	return html`<p class="field">
		<label for="${id}">${label}</label>
		<select id="${id}" name="${name}" ${options.required ? html` required` : ''}>
			${choices.map((choice) => option(choice, choice.value === current))}
		</select>
	</p>`;
}

/** One `<option>`, on one line: a template here would be reflowed by the formatter into padded text. */
function option(choice: Choice, selected: boolean): SafeHtml {
	const chosen = selected ? ' selected' : '';
	return new SafeHtml(`<option value="${escapeHtml(choice.value)}"${chosen}>${escapeHtml(choice.label)}</option>`);
}

/** Categories in their order, each followed by its channels, as Discord's sidebar lists them. */
function sidebarOrder(channels: readonly ChannelFacts[]): ChannelFacts[] {
	const positionOf = new Map(channels.filter((channel) => channel.type === 4).map((c) => [c.id, c.position]));
	const key = (channel: ChannelFacts): [number, number, number] =>
		channel.type === 4
			? [channel.position, 0, 0]
			: [channel.parentId === null ? -1 : (positionOf.get(channel.parentId) ?? -1), 1, channel.position];
	return [...channels].sort((a, b) => {
		const [left, right] = [key(a), key(b)];
		return left[0] - right[0] || left[1] - right[1] || left[2] - right[2] || a.id.localeCompare(b.id);
	});
}

/** The server's channels a use accepts (channel-kinds.ts), as choices. */
export function channelChoices(channels: readonly ChannelFacts[], use: ChannelUse): Choice[] {
	const types = channelTypesFor(use);
	return sidebarOrder(channels.filter((channel) => types.includes(channel.type))).map((channel) => ({
		value: channel.id,
		label: channelLabel(channel),
	}));
}

/** As Discord's sidebar shows them: `#` before a text channel's name, a category's in capitals. */
function channelLabel(channel: ChannelFacts): string {
	if (channel.type === 4) return channel.name.toLocaleUpperCase();
	if (channel.type === 0 || channel.type === 5) return `#${channel.name}`;
	return channel.name;
}

/** The roles a setting may name, highest first as Discord lists them, after the choice that unsets it. */
export function roleChoices(roles: readonly RoleFacts[], unset: string): Choice[] {
	const sorted = [...roles].sort((a, b) => b.position - a.position);
	return [{ value: '', label: unset }, ...sorted.map((role) => ({ value: role.id, label: `@${role.name}` }))];
}

/** A channel choice for an add form; a server without a channel of that kind says so instead. */
export function channelSelect(
	t: Translate,
	channels: readonly ChannelFacts[],
	field: { id: string; label: string; use: ChannelUse },
): SafeHtml {
	const { id, label, use } = field;
	const choices = channelChoices(channels, use);
	if (choices.length === 0) {
		return html`<p class="field"><span>${label}</span> <span class="note">${t('web.manage.noChannels')}</span></p>`;
	}
	// Nothing chosen until the admin chooses: a form sent as it loads must not rename or post into the first one.
	const choose = { label: t('web.manage.chooseChannel'), value: '' };
	return select(id, 'channel', label, [choose, ...choices], '', { required: true });
}
