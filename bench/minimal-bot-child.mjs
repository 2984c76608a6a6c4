// The baseline for the bot's own share of /stats: a minimal discord.js bot, in its own process
// like the real one and in plain JavaScript like the bundle the bot runs from, that answers any command with the same defer + edit (an embed and the same
// PNG) and does nothing else. What the product bot adds on top of this is its own work.
import { readFileSync } from 'node:fs';
import { Client, Events, GatewayIntentBits, MessageFlags } from 'discord.js';

const [apiUrl = '', token = '', pngPath = ''] = process.argv.slice(2);
const png = readFileSync(pngPath);
// Same REST settings as the product bot (src/bot/client.ts), so only the bot's own work differs.
const client = new Client({
	intents: [GatewayIntentBits.Guilds],
	rest: { api: apiUrl, globalRequestsPerSecond: 1000 },
});

client.on(Events.InteractionCreate, (interaction) => {
	if (!interaction.isChatInputCommand()) return;
	void (async () => {
		await interaction.deferReply({ flags: MessageFlags.Ephemeral });
		await interaction.editReply({
			embeds: [{ title: 'Ad statistics', image: { url: 'attachment://chart.png' } }],
			files: [{ attachment: png, name: 'chart.png' }],
		});
	})().catch((error) => console.error(error));
});

process.on('message', (message) => {
	if (message.type === 'timings') {
		const { user, system } = process.cpuUsage();
		process.send?.({ type: 'timings', upstreamMs: 0, renderMs: 0, upstreamRequests: 0, cpuMicros: user + system });
	} else if (message.type === 'stop') void client.destroy().then(() => process.exit(0));
});

client.once(Events.ClientReady, () => process.send?.({ type: 'ready' }));
await client.login(token);
