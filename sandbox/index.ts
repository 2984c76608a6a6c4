export { DiscordSandbox, startDiscordSandbox } from './sandbox.js';
export type { SandboxOptions } from './sandbox.js';
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
	SandboxAttachment,
	SandboxFile,
	SandboxMessage,
	SandboxRejection,
	SandboxResponse,
	SandboxViolation,
	UnknownRequest,
} from './types.js';
