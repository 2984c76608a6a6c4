import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { APIInteraction } from 'discord.js';
import { AlreadyAcknowledgedError, fromRawInteraction } from '../../src/discord/raw-interaction.js';
import type { InteractionAddress, InteractionResponder } from '../../src/discord/responder.js';
import { timeResponses } from '../../src/discord/timed-interaction.js';
import type { CommandInteraction, ComponentInteraction, ModalInteraction } from '../../src/discord/interaction.js';

/** A responder that records what it was asked to send, in order. */
function recordingResponder() {
	const sent: { kind: string; to: InteractionAddress; type?: number; files: number }[] = [];
	const responder: InteractionResponder = {
		respond: async (to, response, files) =>
			void sent.push({ kind: 'respond', to, type: response.type, files: files.length }),
		editOriginal: async (to, _body, files) => void sent.push({ kind: 'edit', to, files: files.length }),
		followUp: async (to, _body, files) => void sent.push({ kind: 'followUp', to, files: files.length }),
	};
	return { responder, sent };
}

// 2026-11-25T00:00:00Z as a snowflake: (ms - Discord epoch) << 22.
const ID = String((BigInt(Date.parse('2026-11-25T00:00:00Z')) - 1_420_070_400_000n) << 22n);

function rawCommand(options: unknown[], resolved?: unknown): APIInteraction {
	return {
		id: ID,
		application_id: '11',
		type: 2,
		token: 'interaction-token',
		version: 1,
		locale: 'de',
		guild_locale: 'ja',
		guild_id: '22',
		channel: { id: '33', type: 0 },
		app_permissions: '2048',
		member: { user: { id: '44' }, roles: ['55'], permissions: '8' },
		data: { id: '66', name: 'stats', type: 1, options, resolved },
	} as unknown as APIInteraction;
}

describe('interactions from raw payloads', () => {
	it('read who, where and when from the payload', () => {
		const { responder } = recordingResponder();
		const command = fromRawInteraction(rawCommand([]), responder) as CommandInteraction;
		assert.equal(command.kind, 'command');
		assert.equal(command.commandName, 'stats');
		assert.equal(command.userId, '44');
		assert.equal(command.guildId, '22');
		assert.equal(command.channelId, '33');
		assert.equal(command.locale, 'de');
		assert.equal(command.guildLocale, 'ja');
		assert.equal(command.memberPermissions, 8n);
		assert.deepEqual(command.memberRoles, ['55']);
		assert.equal(command.appPermissions, 2048n);
		assert.equal(command.createdAt, Date.parse('2026-11-25T00:00:00Z'));
		assert.equal(command.subcommand, null);
		assert.equal(command.acknowledgement, null);
	});

	it('read options by type, a value of the wrong type as absent, and the subcommand chosen', () => {
		const { responder } = recordingResponder();
		const command = fromRawInteraction(
			rawCommand(
				[
					{
						name: 'set',
						type: 1,
						options: [
							{ name: 'days', type: 4, value: 30 },
							{ name: 'scope', type: 3, value: 'server' },
							{ name: 'crafted', type: 4, value: '30' },
							{ name: 'ratio', type: 10, value: 1.5 },
							{ name: 'public', type: 5, value: true },
							{ name: 'channel', type: 7, value: '77' },
							{ name: 'role', type: 8, value: '88' },
						],
					},
				],
				{ channels: { '77': { id: '77', type: 2 } } },
			),
			responder,
		) as CommandInteraction;
		assert.equal(command.subcommand, 'set');
		assert.equal(command.options.integer('days'), 30);
		assert.equal(command.options.string('scope'), 'server');
		assert.equal(command.options.integer('crafted'), null, 'a string is no integer');
		assert.equal(command.options.string('days'), null, 'a number is no string');
		assert.equal(command.options.number('ratio'), 1.5);
		assert.equal(command.options.integer('ratio'), null);
		assert.equal(command.options.boolean('public'), true);
		assert.deepEqual(command.options.channel('channel'), { id: '77', type: 2 });
		assert.deepEqual(command.options.role('role'), { id: '88' });
		assert.equal(command.options.string('absent'), null);
	});

	it('allow one first response: a second is refused and nothing more is sent', async () => {
		const { responder, sent } = recordingResponder();
		const command = fromRawInteraction(rawCommand([]), responder) as CommandInteraction;
		await command.defer('private');
		assert.equal(command.acknowledgement, 'defer');
		await assert.rejects(command.reply({ content: 'x' }, 'private'), AlreadyAcknowledgedError);
		await assert.rejects(command.showModal({ custom_id: 'm', title: 't', components: [] }), AlreadyAcknowledgedError);
		await command.editReply({ content: 'done', files: [{ name: 'chart.png', data: Buffer.from('png') }] });
		await command.followUp({ content: 'more' }, 'public');
		assert.deepEqual(
			sent.map(({ kind, type, files }) => ({ kind, type, files })),
			[
				{ kind: 'respond', type: 5, files: 0 },
				{ kind: 'edit', type: undefined, files: 1 },
				{ kind: 'followUp', type: undefined, files: 0 },
			],
		);
		assert.deepEqual(sent[0]?.to, { id: ID, token: 'interaction-token', applicationId: '11' });
	});

	it('are timed through a layer that reads their state through', async () => {
		const { responder, sent } = recordingResponder();
		const command = fromRawInteraction(rawCommand([]), responder) as CommandInteraction;
		const timed = timeResponses(command, performance.now());
		await timed.interaction.defer('public');
		assert.equal(timed.interaction.acknowledgement, 'defer');
		assert.equal(command.acknowledgement, 'defer', 'the interaction itself was acknowledged');
		assert.equal(timed.interaction.options.string('absent'), null);
		await assert.rejects(timed.interaction.reply({ content: 'x' }, 'public'), AlreadyAcknowledgedError);
		await timed.interaction.editReply({ content: 'done' });
		const times = timed.times();
		assert.ok(times.ackSeconds !== null && times.replySeconds !== null && times.replySeconds >= times.ackSeconds);
		assert.equal(sent.length, 2);
		// Two interactions timed at once keep their own times.
		const other = timeResponses(fromRawInteraction(rawCommand([]), responder) as CommandInteraction);
		assert.deepEqual(other.times(), { ackSeconds: null, replySeconds: null });
		assert.notDeepEqual(timed.times(), other.times());
	});

	it('give a button its custom id and an update as its first response', async () => {
		const { responder, sent } = recordingResponder();
		const raw = {
			...rawCommand([]),
			type: 3,
			data: { custom_id: 'share:sends:30', component_type: 2 },
		} as unknown as APIInteraction;
		const button = fromRawInteraction(raw, responder) as ComponentInteraction;
		assert.equal(button.kind, 'component');
		assert.equal(button.customId, 'share:sends:30');
		assert.equal(button.componentType, 2);
		await button.update({ content: 'updated' });
		assert.equal(button.acknowledgement, 'update');
		await assert.rejects(button.deferUpdate(), AlreadyAcknowledgedError);
		assert.deepEqual(
			sent.map((entry) => entry.type),
			[7],
		);
	});

	it('give a modal its fields from action rows and from labels', () => {
		const { responder } = recordingResponder();
		const raw = {
			...rawCommand([]),
			type: 5,
			data: {
				custom_id: 'link:submit',
				components: [
					{ type: 1, components: [{ type: 4, custom_id: 'key', value: 'in a row' }] },
					{ type: 18, component: { type: 4, custom_id: 'note', value: 'in a label' } },
				],
			},
		} as unknown as APIInteraction;
		const modal = fromRawInteraction(raw, responder) as ModalInteraction;
		assert.equal(modal.kind, 'modal');
		assert.equal(modal.field('key'), 'in a row');
		assert.equal(modal.field('note'), 'in a label');
		assert.equal(modal.field('absent'), null);
	});
});
