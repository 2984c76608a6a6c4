import {
	buildCategory,
	buildMember,
	buildRole,
	buildTextChannel,
	buildVoiceChannel,
	BOT_PERMISSIONS,
	MEMBER_PERMISSIONS,
} from './fixtures.js';
import type { ApiChannel, ApiMember, ApiRole, ApiUser } from './fixtures.js';
import { channelPermissions, guildPermissions, toPermissionString } from './permissions.js';
import type { PermissionInput, PermissionOverwrite, PermissionSubject } from './permissions.js';
import { fixtureSnowflake, fixtureTime, nextSnowflake, parseFixtureSnowflake } from './snowflake.js';
import type { UserDirectory } from './users.js';

export interface FixtureShape {
	channelsPerGuild: number;
	rolesPerGuild: number;
	membersPerGuild: number;
}

/** What a guild needs from the rest of the stand-in: user names and the clock (for `joined_at`). */
export interface GuildContext {
	users: UserDirectory;
	now: () => number;
}

/** What a test may set about a member; fields left out keep their value. */
export interface MemberSettings {
	roles?: readonly string[];
	/**
	 * The member's guild-level permissions, replacing what their roles grant (channel overwrites still apply);
	 * `null` goes back to the roles.
	 */
	permissions?: PermissionInput | null;
	/** True makes them the owner (all permissions). The owner cannot be unset, only replaced. */
	owner?: boolean;
	nick?: string | null;
}

/** A role a test adds: a fresh id unless given. */
export interface RoleSettings {
	id?: string;
	name: string;
	permissions: PermissionInput;
	position?: number;
}

/** An overwrite as a test writes it: permissions as bigint, number or decimal string, default none. */
export interface OverwriteInput {
	id: string;
	/** 0 a role (the guild id for @everyone), 1 a member. */
	type: 0 | 1;
	allow?: PermissionInput;
	deny?: PermissionInput;
}

interface MemberRecord {
	roles: string[];
	nick: string | null;
	joinedAt: string;
	basePermissions?: bigint;
	/** A fixture member's generated name, used unless the test named the user. */
	fallbackName?: string;
}

/** What changed since the fixture was generated; a guild nobody touched keeps none of it. */
interface GuildEdits {
	name?: string;
	preferredLocale?: string;
	ownerId?: string;
	/** null: a member who left. */
	members: Map<string, MemberRecord | null>;
	addedRoles: ApiRole[];
	rolePermissions: Map<string, string>;
	overwrites: Map<string, PermissionOverwrite[]>;
	channelNames: Map<string, string>;
	channelTopics: Map<string, string | null>;
	deletedChannels: Set<string>;
}

type ChannelSlot = { kind: 'text'; index: number } | { kind: 'textCategory' | 'voiceCategory' | 'voice' };

// A voice category and one voice channel, numbered after the members so older fixture ids stay as they were.
const EXTRA_CHANNELS = 2;

/** How many ids a guild of `shape` derives from its timestamp (guild, categories, channels, roles, members). */
export function idsPerGuild(shape: FixtureShape): number {
	const { channelsPerGuild, rolesPerGuild, membersPerGuild } = shape;
	return (
		2 +
		Math.max(1, channelsPerGuild) +
		Math.max(1, rolesPerGuild) -
		1 +
		Math.max(0, membersPerGuild - 1) +
		EXTRA_CHANNELS
	);
}

/**
 * A guild with a text category holding `channelsPerGuild` text channels, a voice category holding one voice
 * channel, `rolesPerGuild` roles (incl. @everyone) and members. Every id derives from the guild's own timestamp
 * (guilds get consecutive ones, so the sharding formula spreads them evenly) and only the id is kept until a test
 * changes something: 10,000 guilds cost about a MiB until a client connects.
 */
export class GuildFixture {
	readonly id: string;
	/** The first text channel: where interactions happen unless a test says otherwise. */
	readonly defaultChannelId: string;
	private edits: GuildEdits | undefined;

	constructor(
		readonly index: number,
		/** `guild_id >> 22`, the number Discord's sharding formula takes modulo the shard count. */
		readonly shardKey: number,
		private readonly bot: ApiUser,
		private readonly shape: FixtureShape,
		private readonly context: GuildContext,
	) {
		this.id = fixtureSnowflake(shardKey, 0);
		this.defaultChannelId = fixtureSnowflake(shardKey, 2);
	}

	get name(): string {
		return this.edits?.name ?? `Sandbox Guild ${this.index + 1}`;
	}

	get preferredLocale(): string {
		return this.edits?.preferredLocale ?? 'en-US';
	}

	/** The first fixture member (the bot in a guild without others), unless a test made someone else the owner. */
	get ownerId(): string {
		return this.edits?.ownerId ?? this.fixtureMemberIds[0] ?? this.bot.id;
	}

	/** The text channels that exist (the categories excluded). */
	get channelIds(): string[] {
		return this.existing(this.range(2, this.layout.channelCount));
	}

	/** The voice channels that exist. */
	get voiceChannelIds(): string[] {
		return this.existing([fixtureSnowflake(this.shardKey, this.layout.firstExtra + 1)]);
	}

	/** The categories that exist: text channels' first, then voice channels'. */
	get categoryIds(): string[] {
		return this.existing([fixtureSnowflake(this.shardKey, 1), fixtureSnowflake(this.shardKey, this.layout.firstExtra)]);
	}

	/** Whether `channelId` is one of this guild's channels (of any type) and was not deleted. */
	hasChannel(channelId: string): boolean {
		return this.slot(channelId) !== undefined && !this.edits?.deletedChannels.has(channelId);
	}

	/** A channel as `GET /channels/{id}` returns it, or undefined (not this guild's, or deleted). */
	channel(channelId: string): ApiChannel | undefined {
		const slot = this.slot(channelId);
		if (!slot || this.edits?.deletedChannels.has(channelId)) return undefined;
		const textCategory = fixtureSnowflake(this.shardKey, 1);
		const voiceCategory = fixtureSnowflake(this.shardKey, this.layout.firstExtra);
		const parent = (id: string) => (this.hasChannel(id) ? id : null);
		let channel: ApiChannel;
		if (slot.kind === 'text') {
			const name = `channel-${slot.index + 1}`;
			channel = buildTextChannel(channelId, this.id, name, slot.index, parent(textCategory));
		} else if (slot.kind === 'voice') {
			channel = buildVoiceChannel(channelId, this.id, 'General', 0, parent(voiceCategory));
		} else if (slot.kind === 'textCategory') channel = buildCategory(channelId, this.id, 'Text Channels', 0);
		else channel = buildCategory(channelId, this.id, 'Voice Channels', 1);
		const edits = this.edits;
		if (!edits) return channel;
		channel.name = edits.channelNames.get(channelId) ?? channel.name;
		if (edits.channelTopics.has(channelId)) channel.topic = edits.channelTopics.get(channelId);
		channel.permission_overwrites = (edits.overwrites.get(channelId) ?? []).map((o) => ({ ...o }));
		return channel;
	}

	/** Every channel that exists: categories first, as Discord lists them. */
	channels(): ApiChannel[] {
		const ids = [...this.categoryIds, ...this.channelIds, ...this.voiceChannelIds];
		return ids.map((id) => this.channel(id)!);
	}

	/** The guild's roles as `GET /guilds/{id}/roles` returns them: @everyone, the bot's role, the rest. */
	roles(): ApiRole[] {
		const permissions = (id: string, fallback: string) => this.edits?.rolePermissions.get(id) ?? fallback;
		const roles = [buildRole(this.id, '@everyone', 0, permissions(this.id, MEMBER_PERMISSIONS))];
		this.fixtureRoleIds.forEach((roleId, i) => {
			const isBotRole = i === 0;
			const name = isBotRole ? this.bot.username : `role-${i}`;
			roles.push(buildRole(roleId, name, i + 1, permissions(roleId, isBotRole ? BOT_PERMISSIONS : '0'), isBotRole));
		});
		for (const role of this.edits?.addedRoles ?? []) roles.push({ ...role });
		return roles;
	}

	/** The role the bot's invite created (managed), when the guild has roles besides @everyone. */
	get botRoleId(): string | undefined {
		return this.fixtureRoleIds[0];
	}

	isMember(userId: string): boolean {
		return this.record(userId) !== undefined;
	}

	/** A member as `GET /guilds/{id}/members/{user}` returns it, or undefined. */
	member(userId: string): ApiMember | undefined {
		const record = this.record(userId);
		if (!record) return undefined;
		const user = this.context.users.user(userId, record.fallbackName);
		return buildMember(user, [...record.roles], record.joinedAt, record.nick);
	}

	/** The bot, the fixture members still here, then members tests added. */
	memberIds(): string[] {
		const ids = [this.bot.id, ...this.fixtureMemberIds].filter((id) => this.isMember(id));
		for (const [id, record] of this.edits?.members ?? []) if (record && !ids.includes(id)) ids.push(id);
		return ids;
	}

	/** Adds or changes a member; see `MemberSettings`. */
	setMember(userId: string, settings: MemberSettings): ApiMember {
		const current = this.record(userId);
		if (settings.owner === false && this.ownerId === userId) {
			throw new Error(`${userId} owns guild ${this.id}: make another member the owner instead`);
		}
		const record: MemberRecord = {
			roles: settings.roles ? [...new Set(settings.roles)] : [...(current?.roles ?? [])],
			nick: settings.nick === undefined ? (current?.nick ?? null) : settings.nick,
			joinedAt: current?.joinedAt ?? new Date(this.context.now()).toISOString(),
		};
		const base = settings.permissions === undefined ? current?.basePermissions : settings.permissions;
		if (base !== null && base !== undefined) record.basePermissions = BigInt(base);
		if (current?.fallbackName) record.fallbackName = current.fallbackName;
		const edits = this.edit();
		edits.members.set(userId, record);
		if (settings.owner) edits.ownerId = userId;
		return this.member(userId)!;
	}

	/** Makes `userId` a member with no roles unless they are one (a user who triggers an interaction is a member). */
	ensureMember(userId: string): void {
		if (!this.isMember(userId)) this.setMember(userId, {});
	}

	removeMember(userId: string): void {
		if (userId === this.bot.id) throw new Error('the stand-in does not model the bot leaving a guild');
		if (userId === this.ownerId)
			throw new Error(`${userId} owns guild ${this.id}: make another member the owner first`);
		this.edit().members.set(userId, null);
	}

	addRole(settings: RoleSettings): ApiRole {
		const id = settings.id ?? nextSnowflake();
		if (this.roles().some((role) => role.id === id)) throw new Error(`guild ${this.id} already has role ${id}`);
		const edits = this.edit();
		const position = settings.position ?? this.fixtureRoleIds.length + edits.addedRoles.length + 1;
		const role = buildRole(id, settings.name, position, toPermissionString(settings.permissions));
		edits.addedRoles.push(role);
		return { ...role };
	}

	setRolePermissions(roleId: string, permissions: PermissionInput): ApiRole {
		const value = toPermissionString(permissions);
		const added = this.edits?.addedRoles.find((role) => role.id === roleId);
		if (added) added.permissions = value;
		else if (roleId === this.id || this.fixtureRoleIds.includes(roleId)) this.edit().rolePermissions.set(roleId, value);
		else throw new Error(`guild ${this.id} has no role ${roleId}`);
		return this.roles().find((role) => role.id === roleId)!;
	}

	setName(name: string): void {
		this.edit().name = name;
	}

	setPreferredLocale(locale: string): void {
		this.edit().preferredLocale = locale;
	}

	setOverwrites(channelId: string, overwrites: readonly OverwriteInput[]): ApiChannel {
		this.requireChannel(channelId);
		const normalised = overwrites.map((o) => ({
			id: o.id,
			type: o.type,
			allow: toPermissionString(o.allow),
			deny: toPermissionString(o.deny),
		}));
		this.edit().overwrites.set(channelId, normalised);
		return this.channel(channelId)!;
	}

	/** Applies the name and topic of a PATCH; answers the channel as it is now. */
	updateChannel(channelId: string, change: { name?: string; topic?: string | null }): ApiChannel {
		this.requireChannel(channelId);
		const edits = this.edit();
		if (change.name !== undefined) edits.channelNames.set(channelId, change.name);
		if (change.topic !== undefined) edits.channelTopics.set(channelId, change.topic);
		return this.channel(channelId)!;
	}

	/** Deletes a channel and answers it as it was; channels of a deleted category lose their parent. */
	deleteChannel(channelId: string): ApiChannel {
		const channel = this.requireChannel(channelId);
		this.edit().deletedChannels.add(channelId);
		return channel;
	}

	/** What the algorithm needs for `userId`, or undefined when they are not a member. */
	permissionSubject(userId: string): PermissionSubject | undefined {
		const record = this.record(userId);
		if (!record) return undefined;
		const subject: PermissionSubject = {
			guildId: this.id,
			ownerId: this.ownerId,
			roles: this.roles(),
			userId,
			memberRoles: record.roles,
		};
		if (record.basePermissions !== undefined) subject.basePermissions = record.basePermissions;
		return subject;
	}

	/** A member's guild-level permissions (0 for someone who is not a member). */
	guildPermissions(userId: string): bigint {
		const subject = this.permissionSubject(userId);
		return subject ? guildPermissions(subject) : 0n;
	}

	/** A member's permissions in a channel, overwrites applied (0 for someone who is not a member). */
	permissionsIn(channelId: string, userId: string): bigint {
		const subject = this.permissionSubject(userId);
		if (!subject) return 0n;
		return channelPermissions(subject, this.channel(channelId)?.permission_overwrites ?? []);
	}

	/** Serialised GUILD_CREATE `d`, built on demand so thousands of guilds stay cheap until a client connects. */
	toGatewayJson(): string {
		const members = this.memberIds().map((id) => this.member(id)!);
		return JSON.stringify({
			...this.fields(),
			roles: this.roles(),
			joined_at: new Date(fixtureTime(this.shardKey)).toISOString(),
			large: false,
			unavailable: false,
			member_count: members.length,
			members,
			channels: this.channels(),
			threads: [],
			presences: [],
			voice_states: [],
			stage_instances: [],
			guild_scheduled_events: [],
			soundboard_sounds: [],
		});
	}

	/** `GET /guilds/{id}`: the guild without its channels and members; `withCounts` adds the approximate counts. */
	toRestJson(withCounts: boolean): Record<string, unknown> {
		const guild: Record<string, unknown> = {
			...this.fields(),
			roles: this.roles(),
			region: 'deprecated',
			widget_enabled: false,
			widget_channel_id: null,
			max_presences: null,
			max_stage_video_channel_users: 50,
			nsfw: false,
			incidents_data: null,
		};
		if (withCounts) {
			guild.approximate_member_count = this.memberIds().length;
			guild.approximate_presence_count = 0;
		}
		return guild;
	}

	/** An entry of `GET /users/@me/guilds` for a member: guild-level permissions as a decimal string. */
	toUserGuild(userId: string): Record<string, unknown> {
		return {
			id: this.id,
			name: this.name,
			icon: null,
			banner: null,
			owner: this.ownerId === userId,
			permissions: this.guildPermissions(userId).toString(),
			features: [],
		};
	}

	private fields(): Record<string, unknown> {
		return {
			id: this.id,
			name: this.name,
			icon: null,
			splash: null,
			discovery_splash: null,
			banner: null,
			home_header: null,
			description: null,
			owner_id: this.ownerId,
			afk_channel_id: null,
			afk_timeout: 300,
			verification_level: 0,
			default_message_notifications: 0,
			explicit_content_filter: 0,
			mfa_level: 0,
			nsfw_level: 0,
			premium_tier: 0,
			premium_subscription_count: 0,
			premium_progress_bar_enabled: false,
			system_channel_id: this.channelIds[0] ?? null,
			system_channel_flags: 0,
			rules_channel_id: null,
			public_updates_channel_id: null,
			safety_alerts_channel_id: null,
			vanity_url_code: null,
			preferred_locale: this.preferredLocale,
			features: [],
			emojis: [],
			stickers: [],
			application_id: null,
			max_members: 500000,
			max_video_channel_users: 25,
		};
	}

	private record(userId: string): MemberRecord | undefined {
		const edited = this.edits?.members.get(userId);
		if (edited !== undefined) return edited ?? undefined;
		const joinedAt = new Date(fixtureTime(this.shardKey)).toISOString();
		if (userId === this.bot.id) return { roles: this.botRoleId ? [this.botRoleId] : [], nick: null, joinedAt };
		const index = this.fixtureMemberIds.indexOf(userId);
		return index < 0 ? undefined : { roles: [], nick: null, joinedAt, fallbackName: `member${index + 1}` };
	}

	private requireChannel(channelId: string): ApiChannel {
		const channel = this.channel(channelId);
		if (!channel) throw new Error(`guild ${this.id} has no channel ${channelId}`);
		return channel;
	}

	private edit(): GuildEdits {
		this.edits ??= {
			members: new Map(),
			addedRoles: [],
			rolePermissions: new Map(),
			overwrites: new Map(),
			channelNames: new Map(),
			channelTopics: new Map(),
			deletedChannels: new Set(),
		};
		return this.edits;
	}

	private slot(channelId: string): ChannelSlot | undefined {
		const parsed = parseFixtureSnowflake(channelId);
		if (parsed?.ms !== this.shardKey) return undefined;
		const { increment } = parsed;
		const { channelCount, firstExtra } = this.layout;
		if (increment === 1) return { kind: 'textCategory' };
		if (increment >= 2 && increment < 2 + channelCount) return { kind: 'text', index: increment - 2 };
		if (increment === firstExtra) return { kind: 'voiceCategory' };
		if (increment === firstExtra + 1) return { kind: 'voice' };
		return undefined;
	}

	private existing(ids: string[]): string[] {
		const deleted = this.edits?.deletedChannels;
		return deleted ? ids.filter((id) => !deleted.has(id)) : ids;
	}

	private get fixtureRoleIds(): string[] {
		return this.range(this.layout.firstRole, this.layout.roleCount);
	}

	private get fixtureMemberIds(): string[] {
		return this.range(this.layout.firstMember, this.layout.memberCount);
	}

	/** Increments: 0 guild, 1 text category, text channels, roles, members, voice category, voice channel. */
	private get layout() {
		const channelCount = Math.max(1, this.shape.channelsPerGuild);
		const roleCount = Math.max(1, this.shape.rolesPerGuild) - 1;
		const memberCount = Math.max(0, this.shape.membersPerGuild - 1);
		const firstRole = 2 + channelCount;
		const firstMember = firstRole + roleCount;
		return { channelCount, roleCount, memberCount, firstRole, firstMember, firstExtra: firstMember + memberCount };
	}

	private range(from: number, count: number): string[] {
		return Array.from({ length: Math.max(0, count) }, (_, i) => fixtureSnowflake(this.shardKey, from + i));
	}
}
