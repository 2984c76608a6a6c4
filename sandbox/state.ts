import type { ApiUser } from './fixtures.js';
import type { GuildFixture } from './guild.js';
import type { InteractionHandle } from './interaction-handle.js';
import { MessageStore } from './messages.js';
import { OAuthStore } from './oauth.js';
import type { Problem } from './problems.js';
import { parseFixtureSnowflake } from './snowflake.js';
import { GlobalLimit } from './global-limit.js';
import type {
	ChannelRename,
	Json,
	SandboxMessage,
	SandboxRejection,
	SandboxViolation,
	UnknownRequest,
} from './records.js';
import type { UserDirectory } from './users.js';

export interface SandboxSettings {
	token: string;
	applicationId: string;
	botUser: ApiUser;
	/** How long the bot has for the first callback (Discord: 3 s). */
	interactionTimeoutMs: number;
	/** How long the interaction token works for webhooks (Discord: 15 min). */
	tokenLifetimeMs: number;
	attachmentSizeLimit: number;
	/** Validate bodies against Discord's OpenAPI description (the limits are always checked). */
	validateSchema: boolean;
	/** What `GET /gateway/bot` recommends as `shards`. */
	recommendedShards: number;
	/** `session_start_limit.max_concurrency`: how many shards discord.js identifies at once. */
	maxConcurrency: number;
	/** The application's OAuth2 client secret. */
	clientSecret: string;
	/** Redirect URIs registered for OAuth2; empty: any absolute http(s) URL is accepted. */
	oauthRedirectUris: string[];
	/** The stand-in's clock in Unix ms (OAuth2 lifetimes, the rename window, `renames[].at`). */
	clock: () => number;
}

/** A guild the bot is not in, known only from the user's side (`GET /users/@me/guilds`). */
export interface GuildWithoutBot {
	id: string;
	name: string;
	/** Member id → their guild-level permissions and whether they own it. */
	members: Map<string, { permissions: string; owner: boolean }>;
}

export interface StoredCommand extends Json {
	id: string;
	name: string;
}

/** Everything the REST side and the test-facing API share. */
export class SandboxState {
	readonly messages = new MessageStore();
	readonly interactions = new Map<string, InteractionHandle>();
	readonly commands = new Map<string, StoredCommand[]>();
	readonly violations: SandboxViolation[] = [];
	readonly unknownRequests: UnknownRequest[] = [];
	readonly rejections: SandboxRejection[] = [];
	readonly startedAt = performance.now();
	/** Time spent handling REST requests, summed (parsing, checks, answering). */
	handlingMs = 0;
	/** Discord's global limit of bot-token requests per second; tests read its counts. */
	readonly globalLimit = new GlobalLimit();
	/** ws://127.0.0.1:PORT/gateway, set once the server listens. */
	gatewayUrl = '';
	/** The application's Ed25519 public key (hex), as `verify_key` reports it; set once HTTP delivery has its key pair. */
	verifyKey = '0'.repeat(64);
	readonly oauth: OAuthStore;
	readonly guildsWithoutBot = new Map<string, GuildWithoutBot>();
	/** Every accepted channel rename, in order. */
	readonly renames: ChannelRename[] = [];
	/** Per channel: clock times of accepted PATCHes that changed the name or topic (Discord's 2 per 10 minutes). */
	readonly nameEdits = new Map<string, number[]>();
	/**
	 * Guilds the bot was removed from (kicked, or the guild deleted), with what bot-token routes answer for them from
	 * then on: 404 10004 Unknown Guild or 403 50001 Missing Access. They leave READY until the bot is added back.
	 */
	readonly removedGuilds = new Map<string, 403 | 404>();
	/** Sends a gateway dispatch to the shard owning `guildId` when a client is connected; set by the sandbox. */
	dispatchEvent: (event: string, data: unknown, guildId: string | null) => void = () => undefined;

	private readonly guildsByKey = new Map<number, GuildFixture>();

	constructor(
		readonly settings: SandboxSettings,
		readonly guilds: GuildFixture[],
		readonly users: UserDirectory,
		defaultOAuthUser: string,
	) {
		this.oauth = new OAuthStore(defaultOAuthUser, settings.clock);
		for (const guild of guilds) this.guildsByKey.set(guild.shardKey, guild);
	}

	/** A guild the bot is in, or undefined (unknown, or the bot was removed from it). */
	guildById(guildId: string): GuildFixture | undefined {
		const guild = this.fixtureById(guildId);
		return guild && !this.removedGuilds.has(guild.id) ? guild : undefined;
	}

	/** A fixture guild whether or not the bot is in it now. */
	fixtureById(guildId: string): GuildFixture | undefined {
		const guild = this.guildsByKey.get(parseFixtureSnowflake(guildId)?.ms ?? -1);
		return guild?.id === guildId ? guild : undefined;
	}

	/** The guild holding channel `channelId` (text, voice or category; not deleted) with the bot in it, or undefined. */
	guildOfChannel(channelId: string): GuildFixture | undefined {
		const guild = this.guildsByKey.get(parseFixtureSnowflake(channelId)?.ms ?? -1);
		return guild?.hasChannel(channelId) && !this.removedGuilds.has(guild.id) ? guild : undefined;
	}

	/** Milliseconds since the sandbox started (the `at` of records). */
	now(): number {
		return performance.now() - this.startedAt;
	}

	/** The stand-in's clock in Unix ms; tests may inject a fake one. */
	clock(): number {
		return this.settings.clock();
	}

	recordViolation(method: string, path: string, problems: Problem[], body: unknown): void {
		this.violations.push({
			method,
			path,
			problems: problems.map((p) => ({ path: p.path.join('.'), code: p.code, message: p.message, source: p.source })),
			body,
			at: this.now(),
		});
	}

	/** A message object as Discord's API returns it. */
	toApiMessage(message: SandboxMessage): Json {
		const api: Json = {
			id: message.id,
			type: message.interactionId ? 20 : 0,
			channel_id: message.channelId,
			author: this.settings.botUser,
			content: message.content,
			embeds: message.embeds,
			components: message.components,
			attachments: message.attachments,
			mentions: [],
			mention_roles: [],
			mention_everyone: false,
			pinned: false,
			tts: false,
			timestamp: new Date(message.createdAt).toISOString(),
			edited_timestamp: message.editedAt === null ? null : new Date(message.editedAt).toISOString(),
			flags: message.flags,
			application_id: this.settings.applicationId,
		};
		if (message.interactionId) api.webhook_id = this.settings.applicationId;
		if (message.guildId) api.guild_id = message.guildId;
		return api;
	}
}
