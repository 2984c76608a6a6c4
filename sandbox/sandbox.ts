import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appRoutes } from './app-routes.js';
import { channelRoutes } from './channel-routes.js';
import { directMessagesOf, directMessagesTo, dmRoutes } from './dm-routes.js';
import { buildUser, MEMBER_PERMISSIONS } from './fixtures.js';
import type { ApiChannel, ApiMember, ApiRole } from './fixtures.js';
import { Gateway } from './gateway.js';
import type { GatewaySessionInfo } from './gateway.js';
import { GuildFixture, idsPerGuild } from './guild.js';
import type { MemberSettings, OverwriteInput, RoleSettings } from './guild.js';
import { guildRoutes } from './guild-routes.js';
import { HttpDelivery } from './http-delivery.js';
import type { EndpointVerification, ProbeResult } from './http-delivery.js';
import { InteractionHandle } from './interaction-handle.js';
import { buildCommandOptions, buildInteractionBase, buildSyntheticComponentMessage } from './interaction-payloads.js';
import type {
	DispatchCommandOptions,
	DispatchComponentOptions,
	DispatchModalSubmitOptions,
	InteractionContext,
	ResolvedContext,
} from './interaction-payloads.js';
import { interactionRoutes } from './interaction-routes.js';
import { SANDBOX_CLIENT_SECRET } from './oauth.js';
import type { OAuthGrant } from './oauth.js';
import { oauthRoutes } from './oauth-routes.js';
import { preloadValidators } from './openapi-validator.js';
import { toPermissionString } from './permissions.js';
import type { PermissionInput } from './permissions.js';
import { createRequestListener } from './rest-server.js';
import type { GlobalLimit } from './global-limit.js';
import { FIXTURE_IDS_PER_MS, nextSnowflake, pastTimestamp, shardOf } from './snowflake.js';
import { SandboxState } from './state.js';
import type { ChannelRename, InteractionDelivery, Json, SandboxMessage } from './records.js';
import { UserDirectory } from './users.js';
import type { SandboxUserProfile } from './users.js';

export interface SandboxOptions {
	guildCount?: number;
	token?: string;
	applicationId?: string;
	heartbeatIntervalMs?: number;
	channelsPerGuild?: number;
	rolesPerGuild?: number;
	membersPerGuild?: number;
	/** The first-callback window (Discord: 3000 ms); tests of late callbacks make it short. */
	interactionTimeoutMs?: number;
	/** How long webhook edits and follow-ups work (Discord: 15 min). */
	tokenLifetimeMs?: number;
	/** Check bodies against Discord's OpenAPI description too (default true; the limits are always checked). */
	validateSchema?: boolean;
	/** Compile the OpenAPI validators at start (≈0.5 s) instead of on the first checked request. */
	preloadValidators?: boolean;
	port?: number;
	/** What `GET /gateway/bot` recommends as `shards` (default: one per 1,000 guilds, at least 1). */
	recommendedShards?: number;
	/** `session_start_limit.max_concurrency` (default 16): shards discord.js identifies at once, without 5 s waits. */
	maxConcurrency?: number;
	/** HTTP delivery from the start: interactions go as signed POSTs to `url` (several: taken in turn). */
	interactions?: { url: string | string[] };
	/** The application's OAuth2 client secret (DISCORD_CLIENT_SECRET); default `SANDBOX_CLIENT_SECRET`. */
	clientSecret?: string;
	/** Redirect URIs registered for OAuth2; default none, and then any absolute http(s) URL is accepted. */
	oauthRedirectUris?: string[];
	/**
	 * The stand-in's clock in Unix ms (default `Date.now`): OAuth2 code and token lifetimes, the channel rename
	 * window and `renames[].at` follow it, so a test with a fake clock can step past ten minutes.
	 */
	now?: () => number;
	/**
	 * Discord's global limit on bot-token requests per wall-clock second (default 50, as Discord); null turns
	 * the refusals off (the counts go on). Interaction callbacks and webhooks are never counted.
	 */
	globalRequestsPerSecond?: number | null;
}

/** A forged, unsigned or replayed request and what the endpoint answered; `handle` records any REST use of its token. */
export interface SandboxProbeResult extends ProbeResult {
	handle: InteractionHandle;
}

const DEFAULT_USER_ID = '300000000000000001';
const DEFAULT_WAIT_MS = 10_000;

/** A local stand-in for Discord's REST API and gateway, for the real discord.js client. */
export class DiscordSandbox {
	readonly token: string;
	readonly applicationId: string;
	readonly botUserId: string;
	readonly guildIds: string[];
	/** The user who triggers interactions unless a dispatch names another. */
	readonly defaultUserId = DEFAULT_USER_ID;
	/** Every interaction dispatched so far, in order (for counting answers per interaction across a run). */
	readonly dispatchedInteractions: InteractionHandle[] = [];
	/** The resume count at which every session dropped by the last `dropConnection()` is back. */
	private resumesAfterDrop = 0;

	constructor(
		private readonly state: SandboxState,
		private readonly gateway: Gateway,
		private readonly http: HttpDelivery,
		private readonly server: ReturnType<typeof createServer>,
		/** `http://127.0.0.1:PORT/api`: DISCORD_API_URL, and discord.js's `rest.api` (it appends `/v10`). */
		readonly apiUrl: string,
		/** `http://127.0.0.1:PORT/oauth2/authorize`: Discord's authorization page (DISCORD_OAUTH_URL). */
		readonly oauthAuthorizeUrl: string,
	) {
		this.token = state.settings.token;
		this.applicationId = state.settings.applicationId;
		this.botUserId = state.settings.botUser.id;
		this.guildIds = state.guilds.map((guild) => guild.id);
	}

	/** ws://127.0.0.1:PORT/gateway, as `GET /gateway/bot` reports it. */
	get gatewayUrl(): string {
		return this.state.gatewayUrl;
	}

	/** The application's Ed25519 public key as 64 hex characters (Discord's "Public Key"; DISCORD_PUBLIC_KEY). */
	get publicKeyHex(): string {
		return this.http.publicKeyHex;
	}

	/** How interactions are delivered now: over the gateway, or as signed POSTs to `endpoints`. */
	get deliveryMode(): 'gateway' | 'http' {
		return this.http.endpoints.length > 0 ? 'http' : 'gateway';
	}

	/** The interactions endpoint URLs in use (empty in gateway mode). */
	get interactionsEndpoints(): readonly string[] {
		return this.http.endpoints;
	}

	/**
	 * Switches delivery to signed POSTs to `url` (several URLs: taken in turn, like a load balancer over identical
	 * workers), or back to the gateway with `null`. As on Discord, no shard gets INTERACTION_CREATE while it is set.
	 * It does not check the URL: call `verifyInteractionsEndpoint` for what Discord checks when the URL is saved.
	 */
	useInteractionsEndpoint(url: string | string[] | null): void {
		this.http.use(url === null ? [] : Array.isArray(url) ? url : [url]);
	}

	/** Discord's check when the URL is saved: a signed PING wants 200 `{"type":1}`, a bad signature wants 401. */
	verifyInteractionsEndpoint(url: string = this.http.endpoints[0] ?? ''): Promise<EndpointVerification> {
		if (!url) throw new Error('verifyInteractionsEndpoint needs a URL');
		return this.http.verify(url);
	}

	/** Sends a command signed with a key that is not the application's (default: to the next endpoint in turn). */
	async forgeInteraction(options: DispatchCommandOptions & { url?: string }): Promise<SandboxProbeResult> {
		const { handle, payload } = this.create(...this.commandParts(options));
		return { ...(await this.http.forge(payload, options.url)), handle };
	}

	/** Sends a command without the signature headers. */
	async sendUnsignedInteraction(options: DispatchCommandOptions & { url?: string }): Promise<SandboxProbeResult> {
		const { handle, payload } = this.create(...this.commandParts(options));
		return { ...(await this.http.sendUnsigned(payload, options.url)), handle };
	}

	/**
	 * Replays a delivered interaction's signature and timestamp over an altered body (default: another user id),
	 * to the endpoint it went to, once the original request was answered.
	 */
	async replayInteraction(
		handle: InteractionHandle,
		alter: (payload: Json) => Json = impersonate,
	): Promise<SandboxProbeResult> {
		await handle.httpSettled;
		return { ...(await this.http.replay(handle, alter)), handle };
	}

	/** What `GET /gateway/bot` recommends as `shards`. */
	get recommendedShards(): number {
		return this.state.settings.recommendedShards;
	}

	/** The shard owning `guildId` among `shardCount` (default: the recommended count): `(guild_id >> 22) % count`. */
	shardOf(guildId: string, shardCount = this.recommendedShards): number {
		return shardOf(guildId, shardCount);
	}

	/** Gateway sessions alive now (connected, or away but resumable), with their shard and guild count. */
	gatewaySessions(): GatewaySessionInfo[] {
		return this.gateway.sessionInfo();
	}

	/** Resolves once connected, ready sessions cover every shard 0 … shardCount-1 (each identified with shardCount). */
	waitForShards(shardCount: number, timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
		return this.gateway.waitUntil(() => this.gateway.coversShards(shardCount), timeoutMs, `${shardCount} shards`);
	}

	get guilds(): readonly GuildFixture[] {
		return this.state.guilds;
	}

	get violations() {
		return this.state.violations;
	}

	get unknownRequests() {
		return this.state.unknownRequests;
	}

	/** Requests refused with a Discord error code (10062, 40060, 10015, 401, …), schema violations excepted. */
	get rejections() {
		return this.state.rejections;
	}

	/**
	 * Drops what the stand-in recorded for a finished interaction: its handle, its messages and their files. A
	 * benchmark of thousands of rounds keeps the stand-in's memory flat this way, so the collections of a growing
	 * heap do not land in the rounds being timed. The interaction's token is then unknown, as an expired one is.
	 */
	forgetInteraction(handle: InteractionHandle): void {
		this.state.interactions.delete(handle.token);
		const at = this.dispatchedInteractions.lastIndexOf(handle);
		if (at >= 0) this.dispatchedInteractions.splice(at, 1);
		for (const message of [...this.state.messages.byId.values()]) {
			if (message.interactionId !== handle.id) continue;
			for (const attachment of message.attachments) this.state.messages.files.delete(attachment.id);
			this.state.messages.delete(message);
		}
	}

	/** Milliseconds the stand-in spent handling REST requests so far, summed: Discord's share of a latency. */
	get handlingMs(): number {
		return this.state.handlingMs;
	}

	/**
	 * Discord's global limit as enforced here: `refused` (429s with `global: true`), `perSecond` (epoch second →
	 * bot-token requests that arrived), `peakPerSecond`, and `limit` (settable; null: none).
	 */
	get globalLimit(): GlobalLimit {
		return this.state.globalLimit;
	}

	/** A guild's text and voice channel ids (categories left out), as the fixture made them. */
	guildChannelIds(guildId: string): string[] {
		const guild = this.state.guildById(guildId);
		return guild ? [...guild.channelIds, ...guild.voiceChannelIds] : [];
	}

	get identifyCount(): number {
		return this.gateway.identifyCount;
	}

	get resumeCount(): number {
		return this.gateway.resumeCount;
	}

	/** Resolves once a client has identified and READY plus every GUILD_CREATE went out. */
	waitForIdentify(timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
		return this.gateway.waitUntil(() => this.gateway.isReady(), timeoutMs, 'IDENTIFY');
	}

	/** Resolves once every session closed by the last `dropConnection()` resumed. */
	waitForResume(timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
		return this.gateway.waitUntil(() => this.gateway.resumeCount >= this.resumesAfterDrop, timeoutMs, 'RESUME');
	}

	/**
	 * Closes gateway connections (only shard `shardId`'s when given); 4000 (default) makes discord.js resume, 1000
	 * makes it identify again.
	 */
	dropConnection(code = 4000, shardId?: number): void {
		this.resumesAfterDrop = this.gateway.resumeCount + this.gateway.dropConnection(code, shardId);
	}

	/**
	 * Sends a slash command (or, with `autocomplete`, an autocomplete request): as INTERACTION_CREATE to every session
	 * owning its guild's shard, or in HTTP mode as a signed POST to the interactions endpoint.
	 */
	dispatchCommand(options: DispatchCommandOptions): InteractionHandle {
		return this.dispatch(...this.commandParts(options));
	}

	private commandParts(options: DispatchCommandOptions): [number, Json, ResolvedContext] {
		const ctx = this.resolve(options);
		const registered = [
			...(ctx.guildId ? (this.state.commands.get(ctx.guildId) ?? []) : []),
			...(this.state.commands.get('global') ?? []),
		].find((command) => command.name === options.name);
		const data: Json = {
			id: registered?.id ?? nextSnowflake(),
			name: options.name,
			type: 1,
			options: buildCommandOptions(options),
		};
		if (registered?.guild_id) data.guild_id = registered.guild_id;
		return [options.autocomplete ? 4 : 2, data, ctx];
	}

	/** Sends a modal submit whose text inputs hold `fields` (custom id → value). */
	dispatchModalSubmit(options: DispatchModalSubmitOptions): InteractionHandle {
		const components = Object.entries(options.fields).map(([customId, value], i) => ({
			type: 1,
			id: i * 2 + 1,
			components: [{ type: 4, id: i * 2 + 2, custom_id: customId, value }],
		}));
		const extra: Json = options.message ? { message: options.message } : {};
		return this.dispatch(5, { custom_id: options.customId, components }, this.resolve(options), extra);
	}

	/** Sends a button press (or a select, with `componentType` and `values`) on a stored or synthetic message. */
	dispatchButton(options: DispatchComponentOptions): InteractionHandle {
		const ctx = this.resolve(options);
		const componentType = options.componentType ?? 2;
		let stored = options.messageId ? this.state.messages.byId.get(options.messageId) : undefined;
		if (stored) ctx.channelId = stored.channelId;
		let message: Json;
		if (stored) message = this.state.toApiMessage(stored);
		else {
			const synthetic = buildSyntheticComponentMessage(
				options.messageId ?? nextSnowflake(),
				ctx.channelId,
				this.state.settings.botUser,
				options.customId,
				componentType,
			);
			stored = this.state.messages.create(
				{ channelId: ctx.channelId, guildId: ctx.guildId, interactionId: null, isEphemeral: false },
				false,
				false,
			);
			stored.components = synthetic.components as Json[];
			message = { ...synthetic, id: stored.id };
		}
		const data: Json = { custom_id: options.customId, component_type: componentType };
		if (componentType !== 2) data.values = options.values ?? [];
		const handle = this.dispatch(3, data, ctx, { message });
		handle.componentMessage = stored;
		return handle;
	}

	/** The stand-in's clock (Unix ms): `SandboxOptions.now`, else `Date.now`. */
	now(): number {
		return this.state.clock();
	}

	// ── OAuth2 (a dashboard's "Log in with Discord") ──

	/** The application's OAuth2 client secret (DISCORD_CLIENT_SECRET). */
	get clientSecret(): string {
		return this.state.settings.clientSecret;
	}

	/** Where the token exchange goes: `${apiUrl}/v10/oauth2/token` (Discord also serves it without the version). */
	get oauthTokenUrl(): string {
		return `${this.apiUrl}/v10/oauth2/token`;
	}

	/** Who stands at the consent screen: the user who approves, or null when the user presses "Cancel". */
	get oauthUser(): string | null {
		return this.state.oauth.approver;
	}

	/**
	 * Sets who approves the next authorizations (default: `defaultUserId`); null makes the user deny, so the
	 * authorization page redirects with `error=access_denied`. `profile` is merged into the user as `setUser` does.
	 */
	setOAuthUser(userId: string | null, profile?: SandboxUserProfile): void {
		this.state.oauth.approver = userId;
		if (userId !== null && profile) this.state.users.set(userId, profile);
	}

	/** Every access token issued so far, with its user, scopes, expiry and whether it was revoked or refreshed. */
	get oauthGrants(): readonly OAuthGrant[] {
		return this.state.oauth.grants;
	}

	/** Names a user (username, display name, avatar, locale) everywhere: interactions, members, `/users/@me`. */
	setUser(userId: string, profile: SandboxUserProfile): void {
		this.state.users.set(userId, profile);
	}

	// ── Guilds, members and roles ──

	/** Renames a guild (a GUILD_UPDATE goes to a connected client). */
	setGuildName(guildId: string, name: string): void {
		const guild = this.requireGuild(guildId);
		guild.setName(name);
		this.notifyGuildUpdate(guild);
	}

	/** Sets a guild's preferred locale (default `en-US`), also the default `guild_locale` of its interactions. */
	setGuildLocale(guildId: string, locale: string): void {
		const guild = this.requireGuild(guildId);
		guild.setPreferredLocale(locale);
		this.notifyGuildUpdate(guild);
	}

	/**
	 * Adds or changes a member: their roles (ids the guild lacks are kept but grant nothing), a guild-level
	 * `permissions` that replaces what the roles grant, or `owner: true`. Their interactions carry these roles and
	 * the permissions computed from them. A change to the bot's own member goes out as GUILD_MEMBER_UPDATE, as Discord
	 * sends it without the members intent.
	 */
	setMember(guildId: string, userId: string, settings: MemberSettings = {}): ApiMember {
		const guild = this.requireGuild(guildId);
		const owner = guild.ownerId;
		const member = guild.setMember(userId, settings);
		if (userId === this.botUserId) {
			this.state.dispatchEvent('GUILD_MEMBER_UPDATE', { ...member, guild_id: guildId }, guildId);
		}
		if (guild.ownerId !== owner) this.notifyGuildUpdate(guild);
		return member;
	}

	/** The roles `userId` holds in the guild from now on (`setMember` with roles only). */
	setMemberRoles(guildId: string, userId: string, roleIds: readonly string[]): ApiMember {
		return this.setMember(guildId, userId, { roles: roleIds });
	}

	/** A member as `GET /guilds/{id}/members/{user}` returns it, or undefined when not a member. */
	member(guildId: string, userId: string): ApiMember | undefined {
		return this.requireGuild(guildId).member(userId);
	}

	/** Takes a member out of the guild (the bot and the owner cannot leave). A later interaction of theirs adds them back. */
	removeMember(guildId: string, userId: string): void {
		this.requireGuild(guildId).removeMember(userId);
	}

	/** Adds a role (GUILD_ROLE_CREATE goes to a connected client). */
	addRole(guildId: string, settings: RoleSettings): ApiRole {
		const role = this.requireGuild(guildId).addRole(settings);
		this.state.dispatchEvent('GUILD_ROLE_CREATE', { guild_id: guildId, role }, guildId);
		return role;
	}

	/** Changes what a role grants; the guild id is @everyone (GUILD_ROLE_UPDATE goes to a connected client). */
	setRolePermissions(guildId: string, roleId: string, permissions: PermissionInput): ApiRole {
		const role = this.requireGuild(guildId).setRolePermissions(roleId, permissions);
		this.state.dispatchEvent('GUILD_ROLE_UPDATE', { guild_id: guildId, role }, guildId);
		return role;
	}

	/**
	 * Lists a guild the bot is not in among `userId`'s guilds (`GET /users/@me/guilds` only; every bot-token route
	 * answers 404 10004 for it). Call again with the same id for another member. Answers the guild's id.
	 */
	addGuildWithoutBot(
		userId: string,
		guild: { id?: string; name?: string; permissions?: PermissionInput; owner?: boolean } = {},
	): string {
		const id = guild.id ?? nextSnowflake();
		if (this.state.guildById(id)) throw new Error(`the bot is in guild ${id}`);
		const entry = this.state.guildsWithoutBot.get(id) ?? {
			id,
			name: guild.name ?? 'Guild without the bot',
			members: new Map(),
		};
		if (guild.name !== undefined) entry.name = guild.name;
		const permissions = toPermissionString(guild.permissions ?? MEMBER_PERMISSIONS);
		entry.members.set(userId, { permissions, owner: guild.owner ?? false });
		this.state.guildsWithoutBot.set(id, entry);
		return id;
	}

	/**
	 * Removes the bot from a guild, as a kick or the guild's deletion does: GUILD_DELETE without `unavailable` goes to
	 * the shard owning it (nobody hears it when no client is connected: the guild is then simply missing from the next
	 * READY), and every bot-token route answers 404 10004 for it from now on, or 403 50001 with `answer: 403`.
	 */
	removeBotFromGuild(guildId: string, options: { answer?: 403 | 404 } = {}): void {
		const guild = this.requireFixture(guildId);
		this.state.removedGuilds.set(guild.id, options.answer ?? 404);
		this.state.dispatchEvent('GUILD_DELETE', { id: guild.id }, guild.id);
	}

	/** An outage of the guild: GUILD_DELETE with `unavailable: true`; the bot stays in it and its routes still answer. */
	guildOutage(guildId: string): void {
		const guild = this.requireGuild(guildId);
		this.state.dispatchEvent('GUILD_DELETE', { id: guild.id, unavailable: true }, guild.id);
	}

	/** Adds the bot (back) to a guild: GUILD_CREATE goes to its shard, the routes answer again, READY lists it again. */
	addBotToGuild(guildId: string): void {
		const guild = this.requireFixture(guildId);
		this.state.removedGuilds.delete(guild.id);
		this.state.dispatchEvent('GUILD_CREATE', JSON.parse(guild.toGatewayJson()) as unknown, guild.id);
	}

	/** Whether the bot is in the guild now (false after `removeBotFromGuild`). */
	botInGuild(guildId: string): boolean {
		return this.state.guildById(guildId) !== undefined;
	}

	/** A member's guild-level permissions (roles, owner, Administrator); 0 for a non-member. */
	guildPermissions(guildId: string, userId: string = this.botUserId): bigint {
		return this.requireGuild(guildId).guildPermissions(userId);
	}

	/** A member's permissions in a channel (default: the bot's), by Discord's algorithm with the channel's overwrites. */
	permissionsIn(channelId: string, userId: string = this.botUserId): bigint {
		return this.requireGuildOfChannel(channelId).permissionsIn(channelId, userId);
	}

	// ── Channels ──

	/** A channel as `GET /channels/{id}` returns it, or undefined when unknown or deleted. */
	channel(channelId: string): ApiChannel | undefined {
		return this.state.guildOfChannel(channelId)?.channel(channelId);
	}

	/**
	 * Replaces a channel's permission overwrites (a CHANNEL_UPDATE goes to a connected client), e.g. to plant
	 * "the bot cannot post here": `[{ id: sandbox.botUserId, type: 1, deny: 2048n }]`.
	 */
	setChannelOverwrites(channelId: string, overwrites: readonly OverwriteInput[]): ApiChannel {
		const guild = this.requireGuildOfChannel(channelId);
		const channel = guild.setOverwrites(channelId, overwrites);
		this.state.dispatchEvent('CHANNEL_UPDATE', channel, guild.id);
		return channel;
	}

	/** Deletes a channel as a moderator would: REST answers 404 10003 for it from now on, and CHANNEL_DELETE goes out. */
	deleteChannel(channelId: string): ApiChannel {
		const guild = this.requireGuildOfChannel(channelId);
		const channel = guild.deleteChannel(channelId);
		this.state.dispatchEvent('CHANNEL_DELETE', channel, guild.id);
		return channel;
	}

	/** Channel renames Discord accepted, in order (`PATCH /channels/{id}` with a name), at the sandbox clock. */
	get renames(): readonly ChannelRename[] {
		return this.state.renames;
	}

	/**
	 * Sends any gateway dispatch (GUILD_ROLE_DELETE, CHANNEL_DELETE, …) to the sessions owning `guildId`'s shard
	 * (shard 0 for null), without changing the stand-in's state. Throws when no client has identified.
	 */
	dispatchGatewayEvent(event: string, data: unknown, guildId: string | null): InteractionDelivery[] {
		return this.gateway.dispatch(event, data, guildId);
	}

	/** Commands registered by PUT/POST: global ones, or a guild's when `guildId` is given. */
	registeredCommands(guildId?: string): Json[] {
		return this.state.commands.get(guildId ?? 'global') ?? [];
	}

	/** The bot's direct messages to a user (`POST /users/@me/channels`, then a post there), in order. */
	directMessages(userId: string): SandboxMessage[] {
		return directMessagesTo(this.state, userId);
	}

	/** Makes a user refuse the bot's DMs (403 50007), as when they share no server or turned DMs off; false undoes it. */
	refuseDirectMessages(userId: string, refused = true): void {
		const { closed } = directMessagesOf(this.state);
		if (refused) closed.add(userId);
		else closed.delete(userId);
	}

	/** Public messages posted in a channel (non-ephemeral replies, follow-ups, channel.send), as they stand now. */
	channelMessages(channelId: string): SandboxMessage[] {
		return this.state.messages.byChannel.get(channelId) ?? [];
	}

	/** Deletes a public message as a moderator would: REST answers 404 10008 for it from now on. */
	deleteMessage(messageId: string): void {
		const message = this.state.messages.byId.get(messageId);
		if (!message) return;
		for (const attachment of message.attachments) this.state.messages.files.delete(attachment.id);
		this.state.messages.delete(message);
	}

	/** Bytes served for an attachment URL the sandbox handed out, or undefined. */
	attachmentBytes(url: string): Buffer | undefined {
		const id = new URL(url).pathname.split('/')[3] ?? '';
		return this.state.messages.files.get(id)?.bytes;
	}

	/** Throws listing every violation and unknown route the bot produced (so a test fails on a gap, too). */
	assertNoViolations(): void {
		const lines = [
			...this.state.violations.map(
				(v) =>
					`${v.method} ${v.path}: ${v.problems.map((p) => `${p.path || '(body)'} ${p.code} ${p.message}`).join('; ')}`,
			),
			...this.state.unknownRequests.map((u) => `${u.method} ${u.path}: route unknown to the sandbox (404)`),
		];
		if (lines.length > 0) throw new Error(`Discord sandbox saw ${lines.length} problem(s):\n${lines.join('\n')}`);
	}

	/** Forgets recorded violations, unknown requests and rejections (after a test that provoked them on purpose). */
	clearRecords(): void {
		this.state.violations.length = 0;
		this.state.unknownRequests.length = 0;
		this.state.rejections.length = 0;
	}

	async close(): Promise<void> {
		this.gateway.close();
		this.http.close();
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private requireGuild(guildId: string): GuildFixture {
		const guild = this.state.guildById(guildId);
		if (!guild) throw new Error(`the sandbox has no guild ${guildId}`);
		return guild;
	}

	private requireFixture(guildId: string): GuildFixture {
		const guild = this.state.fixtureById(guildId);
		if (!guild) throw new Error(`the sandbox has no guild ${guildId}`);
		return guild;
	}

	private requireGuildOfChannel(channelId: string): GuildFixture {
		const guild = this.state.guildOfChannel(channelId);
		if (!guild) throw new Error(`the sandbox has no channel ${channelId} (unknown or deleted)`);
		return guild;
	}

	private notifyGuildUpdate(guild: GuildFixture): void {
		this.state.dispatchEvent('GUILD_UPDATE', guild.toRestJson(false), guild.id);
	}

	private resolve(options: InteractionContext): ResolvedContext {
		const guildId = options.guildId === undefined ? (this.guildIds[0] ?? null) : options.guildId;
		const guild = guildId ? this.state.guildById(guildId) : undefined;
		const userId = options.userId ?? DEFAULT_USER_ID;
		const channelId = options.channelId ?? guild?.defaultChannelId ?? `4${userId.slice(1)}`;
		const ctx: ResolvedContext = {
			guildId,
			channelId,
			user: this.state.users.user(userId),
			permissions: options.permissions === undefined ? MEMBER_PERMISSIONS : String(options.permissions),
			locale: options.locale ?? this.state.users.locale(userId) ?? 'en-US',
			guildLocale: options.guildLocale ?? guild?.preferredLocale ?? 'en-US',
		};
		if (!guild) return ctx;
		// Whoever uses a command in a guild is a member of it.
		guild.ensureMember(userId);
		const member = guild.member(userId)!;
		ctx.user = member.user;
		ctx.member = { roles: member.roles, joinedAt: member.joined_at };
		if (options.permissions === undefined) ctx.permissions = guild.permissionsIn(channelId, userId).toString();
		ctx.appPermissions = guild.permissionsIn(channelId, this.botUserId).toString();
		const channel = guild.channel(channelId);
		if (channel) ctx.channel = channel;
		return ctx;
	}

	private create(type: number, data: Json, ctx: ResolvedContext, extra: Json = {}) {
		const id = nextSnowflake();
		const token = `aW50ZXJhY3Rpb246${id}_${randomBytes(24).toString('base64url')}`;
		const payload: Json = {
			...buildInteractionBase(id, token, this.applicationId, ctx, this.state.settings.attachmentSizeLimit),
			type,
			data,
			...extra,
		};
		const handle = new InteractionHandle(
			id,
			token,
			type,
			ctx.channelId,
			ctx.guildId,
			ctx.user.id,
			performance.now(),
			payload,
		);
		this.state.interactions.set(token, handle);
		return { handle, payload };
	}

	private dispatch(type: number, data: Json, ctx: ResolvedContext, extra: Json = {}): InteractionHandle {
		const { handle, payload } = this.create(type, data, ctx, extra);
		this.dispatchedInteractions.push(handle);
		if (this.deliveryMode === 'http') this.http.deliver(handle, payload);
		else handle.deliveredTo.push(...this.gateway.dispatch('INTERACTION_CREATE', payload, ctx.guildId));
		return handle;
	}
}

/** The default alteration of a replayed body: the same interaction, claimed by another user. */
function impersonate(payload: Json): Json {
	const other = buildUser('999999999999999999', 'impostor');
	const member = payload.member as Json | undefined;
	return member ? { ...payload, member: { ...member, user: other } } : { ...payload, user: other };
}

/** Starts REST and gateway on 127.0.0.1 (a free port unless `port` is given). */
export async function startDiscordSandbox(options: SandboxOptions = {}): Promise<DiscordSandbox> {
	const token = options.token ?? `sandbox.${randomBytes(18).toString('base64url')}`;
	const applicationId = options.applicationId ?? nextSnowflake();
	const botUser = buildUser(applicationId, 'Sandbox Bot', true);
	const shape = {
		channelsPerGuild: options.channelsPerGuild ?? 20,
		rolesPerGuild: options.rolesPerGuild ?? 16,
		membersPerGuild: options.membersPerGuild ?? 5,
	};
	if (idsPerGuild(shape) > FIXTURE_IDS_PER_MS) throw new Error('a sandbox guild holds at most 4,094 objects');
	const guildCount = options.guildCount ?? 1;
	const clock = options.now ?? Date.now;
	const users = new UserDirectory(botUser);
	// Consecutive timestamps in the past: guild i lands on shard i % shardCount by Discord's formula.
	const firstMs = pastTimestamp(guildCount + 60_000);
	const guilds = Array.from(
		{ length: guildCount },
		(_, i) => new GuildFixture(i, firstMs + i, botUser, shape, { users, now: clock }),
	);
	const state = new SandboxState(
		{
			token,
			applicationId,
			botUser,
			interactionTimeoutMs: options.interactionTimeoutMs ?? 3000,
			tokenLifetimeMs: options.tokenLifetimeMs ?? 15 * 60_000,
			attachmentSizeLimit: 10 * 1024 * 1024,
			validateSchema: options.validateSchema ?? true,
			recommendedShards: options.recommendedShards ?? Math.max(1, Math.ceil(guildCount / 1000)),
			maxConcurrency: options.maxConcurrency ?? 16,
			clientSecret: options.clientSecret ?? SANDBOX_CLIENT_SECRET,
			oauthRedirectUris: options.oauthRedirectUris ?? [],
			clock,
		},
		guilds,
		users,
		DEFAULT_USER_ID,
	);
	if (options.preloadValidators && state.settings.validateSchema) preloadValidators();
	if (options.globalRequestsPerSecond !== undefined) state.globalLimit.limit = options.globalRequestsPerSecond;
	const gateway = new Gateway({
		token,
		heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41250,
		botUser,
		applicationId,
		guilds,
		botIn: (guild) => !state.removedGuilds.has(guild.id),
		url: () => state.gatewayUrl,
	});
	// Changes a test makes reach a connected client as Discord would tell it; with none connected, nobody hears.
	state.dispatchEvent = (event, data, guildId) => {
		if (gateway.identifyCount > 0) gateway.dispatch(event, data, guildId);
	};
	const routes = [...interactionRoutes, ...appRoutes, ...oauthRoutes, ...guildRoutes, ...channelRoutes, ...dmRoutes];
	const server = createServer(createRequestListener(state, routes));
	server.on('upgrade', (request, socket, head: Buffer) => {
		if ((request.url ?? '').startsWith('/gateway')) gateway.handleUpgrade(request, socket, head);
		else socket.destroy();
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	const origin = `http://127.0.0.1:${port}`;
	state.gatewayUrl = `ws://127.0.0.1:${port}/gateway`;
	state.messages.setBaseUrl(origin);
	const http = new HttpDelivery(state);
	state.verifyKey = http.publicKeyHex;
	if (options.interactions) {
		const { url } = options.interactions;
		http.use(Array.isArray(url) ? url : [url]);
	}
	return new DiscordSandbox(state, gateway, http, server, `${origin}/api`, `${origin}/oauth2/authorize`);
}
