import { randomBytes } from 'node:crypto';

/** The application's OAuth2 client secret unless `SandboxOptions.clientSecret` sets another (DISCORD_CLIENT_SECRET). */
export const SANDBOX_CLIENT_SECRET = 'sandbox-client-secret';
/** An authorization code works once, within 10 minutes (Discord's documented lifetime). */
export const OAUTH_CODE_LIFETIME_MS = 10 * 60_000;
/** `expires_in` of an access token: 7 days, as Discord grants. */
export const OAUTH_TOKEN_LIFETIME_S = 604_800;

/** An access token the stand-in issued, and to whom. */
export interface OAuthGrant {
	userId: string;
	scopes: string[];
	accessToken: string;
	refreshToken: string;
	/** Sandbox clock (ms) after which the access token answers 401. */
	expiresAt: number;
	revoked: boolean;
}

interface PendingCode {
	userId: string;
	scopes: string[];
	clientId: string;
	redirectUri: string;
	expiresAt: number;
}

/** Why a code or refresh token was refused, in OAuth2's words. */
export type ExchangeFailure = { error: 'invalid_grant'; description: string };

const secret = (bytes: number): string => randomBytes(bytes).toString('base64url');

/** Codes, tokens and who stands at Discord's consent screen. */
export class OAuthStore {
	/** Who approves the next authorization; null: the user presses "Cancel" (`error=access_denied`). */
	approver: string | null;
	readonly grants: OAuthGrant[] = [];
	private readonly codes = new Map<string, PendingCode>();
	private readonly byAccessToken = new Map<string, OAuthGrant>();
	private readonly byRefreshToken = new Map<string, OAuthGrant>();

	constructor(
		defaultApprover: string,
		private readonly clock: () => number,
	) {
		this.approver = defaultApprover;
	}

	issueCode(userId: string, scopes: string[], clientId: string, redirectUri: string): string {
		const code = secret(20);
		this.codes.set(code, { userId, scopes, clientId, redirectUri, expiresAt: this.clock() + OAUTH_CODE_LIFETIME_MS });
		return code;
	}

	/** Trades a code for tokens; a code works once, for the client and redirect URI it was issued to. */
	redeemCode(code: string, clientId: string, redirectUri: string): OAuthGrant | ExchangeFailure {
		const pending = this.codes.get(code);
		if (!pending || pending.clientId !== clientId || pending.expiresAt <= this.clock()) {
			if (pending && pending.expiresAt <= this.clock()) this.codes.delete(code);
			return { error: 'invalid_grant', description: 'Invalid "code" in request.' };
		}
		if (pending.redirectUri !== redirectUri) {
			return { error: 'invalid_grant', description: 'Invalid "redirect_uri" in request.' };
		}
		this.codes.delete(code);
		return this.grant(pending.userId, pending.scopes);
	}

	/** Trades a refresh token for new tokens; the old pair stops working. */
	refresh(refreshToken: string): OAuthGrant | ExchangeFailure {
		const old = this.byRefreshToken.get(refreshToken);
		if (!old || old.revoked) return { error: 'invalid_grant', description: 'Invalid "refresh_token" in request.' };
		this.revoke(refreshToken);
		return this.grant(old.userId, old.scopes);
	}

	/** Revokes the grant holding `token` (access or refresh token); unknown tokens are ignored, as RFC 7009 says. */
	revoke(token: string): void {
		const grant = this.byAccessToken.get(token) ?? this.byRefreshToken.get(token);
		if (grant) grant.revoked = true;
	}

	/** The live grant behind an `Authorization: Bearer …` header, or undefined. */
	bearer(authorization: string | undefined): OAuthGrant | undefined {
		if (!authorization?.startsWith('Bearer ')) return undefined;
		const grant = this.byAccessToken.get(authorization.slice('Bearer '.length).trim());
		return grant && !grant.revoked && grant.expiresAt > this.clock() ? grant : undefined;
	}

	private grant(userId: string, scopes: string[]): OAuthGrant {
		const grant: OAuthGrant = {
			userId,
			scopes,
			accessToken: secret(24),
			refreshToken: secret(24),
			expiresAt: this.clock() + OAUTH_TOKEN_LIFETIME_S * 1000,
			revoked: false,
		};
		this.grants.push(grant);
		this.byAccessToken.set(grant.accessToken, grant);
		this.byRefreshToken.set(grant.refreshToken, grant);
		return grant;
	}
}
