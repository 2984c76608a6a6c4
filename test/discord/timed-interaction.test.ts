import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { timeResponses } from '../../src/discord/timed-interaction.js';
import type { Acknowledgement, CommandInteraction } from '../../src/discord/interaction.js';

/** A command interaction whose responses succeed, or fail once `refuse` is set, and record their order. */
function fakeInteraction(refuse: Set<string> = new Set()) {
	const sent: string[] = [];
	let acknowledgement: Acknowledgement | null = null;
	const respond = (name: string, as?: Acknowledgement) => async () => {
		if (refuse.has(name)) throw new Error(`${name} refused`);
		if (as) acknowledgement = as;
		sent.push(name);
	};
	const interaction = {
		kind: 'command',
		commandName: 'stats',
		get acknowledgement() {
			return acknowledgement;
		},
		reply: respond('reply', 'reply'),
		defer: respond('defer', 'defer'),
		showModal: respond('showModal', 'modal'),
		editReply: respond('editReply'),
		followUp: respond('followUp'),
	} as unknown as CommandInteraction;
	return { interaction, sent };
}

describe('response times of an interaction', () => {
	it('a defer acknowledges, the edit after it is the reply', async () => {
		const { interaction, sent } = fakeInteraction();
		const timed = timeResponses(interaction, performance.now());
		assert.deepEqual(timed.times(), { ackSeconds: null, replySeconds: null });
		await timed.interaction.defer('private');
		const afterDefer = timed.times();
		assert.ok(afterDefer.ackSeconds !== null && afterDefer.ackSeconds >= 0);
		assert.equal(afterDefer.replySeconds, null, 'a defer carries no answer');
		assert.equal(timed.interaction.acknowledgement, 'defer', 'the state reads through');
		await timed.interaction.editReply({ content: 'x' });
		const done = timed.times();
		assert.equal(done.ackSeconds, afterDefer.ackSeconds, 'the acknowledgement keeps its time');
		assert.ok(done.replySeconds !== null && done.replySeconds >= done.ackSeconds!);
		assert.deepEqual(sent, ['defer', 'editReply']);
	});

	it('a reply is both the acknowledgement and the answer; a refused response times nothing', async () => {
		const replied = fakeInteraction();
		const timed = timeResponses(replied.interaction);
		await timed.interaction.reply({ content: 'x' }, 'private');
		assert.equal(timed.times().ackSeconds, timed.times().replySeconds);

		const refused = fakeInteraction(new Set(['reply']));
		const failed = timeResponses(refused.interaction);
		await assert.rejects(failed.interaction.reply({ content: 'x' }, 'private'), /reply refused/);
		assert.deepEqual(failed.times(), { ackSeconds: null, replySeconds: null });
	});

	it('counts from the receipt it is given', async () => {
		const { interaction } = fakeInteraction();
		const timed = timeResponses(interaction, performance.now() - 2500);
		await timed.interaction.showModal({ custom_id: 'link:submit', title: 't', components: [] });
		assert.ok(timed.times().ackSeconds! >= 2.5);
	});
});
