export { DiscordSandbox, startDiscordSandbox } from './sandbox.js';
export type { SandboxOptions, SandboxProbeResult } from './sandbox.js';
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
