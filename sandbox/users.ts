import { buildUser } from './fixtures.js';
import type { ApiUser } from './fixtures.js';

/** What a test may set about a user; everything else is derived from the id. */
export interface SandboxUserProfile {
	username?: string;
	/** Display name; default: the username. */
	globalName?: string | null;
	/** Avatar hash; default none. */
	avatar?: string | null;
	/** The user's client language (`GET /users/@me` `locale`, and the `locale` of their interactions); default `en-US`. */
	locale?: string;
}

/** Users as every route and dispatch shows them: the bot, users a test described, and made-up ones. */
export class UserDirectory {
	private readonly profiles = new Map<string, SandboxUserProfile>();

	constructor(private readonly bot: ApiUser) {}

	/** Merges `profile` into what is known of `userId`. */
	set(userId: string, profile: SandboxUserProfile): void {
		this.profiles.set(userId, { ...this.profiles.get(userId), ...profile });
	}

	/** The user object; `fallbackName` (a fixture member's name) is used when no username was set. */
	user(userId: string, fallbackName = `user${userId.slice(-4)}`): ApiUser {
		if (userId === this.bot.id) return this.bot;
		const profile = this.profiles.get(userId);
		const user = buildUser(userId, profile?.username ?? fallbackName);
		if (profile?.globalName !== undefined) user.global_name = profile.globalName;
		if (profile?.avatar !== undefined) user.avatar = profile.avatar;
		return user;
	}

	/** `GET /users/@me` with an OAuth2 token: the user plus what only the user sees of themself. */
	self(userId: string): ApiUser & { locale: string; mfa_enabled: boolean; premium_type: number } {
		return { ...this.user(userId), locale: this.locale(userId) ?? 'en-US', mfa_enabled: false, premium_type: 0 };
	}

	locale(userId: string): string | undefined {
		return this.profiles.get(userId)?.locale;
	}
}
