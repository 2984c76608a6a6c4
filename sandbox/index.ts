export { DiscordSandbox, startDiscordSandbox } from './sandbox.js';
export type { SandboxOptions, SandboxProbeResult } from './sandbox.js';
export { BOT_PERMISSIONS, MEMBER_PERMISSIONS } from './fixtures.js';
export type { ApiChannel, ApiMember, ApiRole, ApiUser } from './fixtures.js';
export type { MemberSettings, OverwriteInput, RoleSettings } from './guild.js';
export { OAUTH_CODE_LIFETIME_MS, OAUTH_TOKEN_LIFETIME_S, SANDBOX_CLIENT_SECRET } from './oauth.js';
export type { OAuthGrant } from './oauth.js';
export { ALL_PERMISSIONS, channelPermissions, guildPermissions, Permission } from './permissions.js';
export type { PermissionInput, PermissionOverwrite, PermissionSubject } from './permissions.js';
export { RENAME_WINDOW_MS, RENAMES_PER_WINDOW } from './channel-routes.js';
export type { SandboxUserProfile } from './users.js';
export type { GatewaySessionInfo } from './gateway.js';
export { DISCORD_INTERACTIONS_USER_AGENT } from './http-delivery.js';
export type { EndpointVerification, ProbeResult } from './http-delivery.js';
export { InteractionHandle } from './interaction-handle.js';
export type {
	CommandOptionInput,
	DispatchCommandOptions,
	DispatchComponentOptions,
	DispatchModalSubmitOptions,
	InteractionContext,
} from './interaction-payloads.js';
export { preloadValidators } from './openapi-validator.js';
export type {
	ChannelRename,
	InteractionDelivery,
	InteractionHttpExchange,
	SandboxAttachment,
	SandboxFile,
	SandboxMessage,
	SandboxRejection,
	SandboxResponse,
	SandboxViolation,
	UnknownRequest,
} from './types.js';
