import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import type { Problem } from './problems.js';

// A copy of Discord's published description (MIT, see discord-api-spec/LICENSE), reformatted by prettier.
const SPEC_URL = new URL('./discord-api-spec/openapi.json', import.meta.url);
const require = createRequire(import.meta.url);

export type RequestSchemaName =
	| 'CreateMessageInteractionCallbackRequest'
	| 'UpdateMessageInteractionCallbackRequest'
	| 'ApplicationCommandAutocompleteCallbackRequest'
	| 'ModalInteractionCallbackRequest'
	| 'PongInteractionCallbackRequest'
	| 'IncomingWebhookUpdateRequestPartial'
	| 'IncomingWebhookRequestPartial'
	| 'ApplicationCommandUpdateRequest'
	| 'ApplicationCommandCreateRequest'
	| 'ApplicationCommandPatchRequestPartial'
	| 'MessageCreateRequest'
	| 'MessageEditRequestPartial'
	| 'UpdateGuildChannelRequestPartial';

/** Answer schemas, for checking what the stand-in itself returns. */
export type ResponseSchemaName =
	| 'GuildChannelResponse'
	| 'GuildMemberResponse'
	| 'GuildRoleResponse'
	| 'GuildWithCountsResponse'
	| 'MyGuildResponse'
	| 'UserPIIResponse';

interface AjvLike {
	compile(schema: object): ValidateFunction;
}

let ajv: AjvLike | undefined;
const validators = new Map<string, ValidateFunction>();

// Loaded through require: ajv ships CommonJS and its default export does not survive NodeNext interop cleanly.
function loadAjv(): AjvLike {
	if (ajv) return ajv;
	const { Ajv2020 } = require('ajv/dist/2020.js') as { Ajv2020: new (options: object) => AjvLike };
	const formats = require('ajv-formats') as { default?: (a: AjvLike) => void } & ((a: AjvLike) => void);
	const instance = new Ajv2020({ strict: false, allErrors: false }) as AjvLike & {
		addFormat(name: string, format: object | RegExp | ((value: string) => boolean)): void;
		addKeyword(definition: object): void;
		addSchema(schema: object, key: string): void;
	};
	(formats.default ?? formats)(instance);
	instance.addFormat('int32', {
		type: 'number',
		validate: (n: number) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647,
	});
	instance.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
	instance.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
	instance.addFormat('snowflake', /^(0|[1-9][0-9]*)$/);
	instance.addFormat('nonce', () => true);
	// An annotation telling code generators that an anyOf is really a oneOf; ajv only has to accept it.
	instance.addKeyword({ keyword: 'x-discord-union' });
	instance.addSchema(JSON.parse(readFileSync(SPEC_URL, 'utf8')) as object, 'discord');
	ajv = instance;
	return instance;
}

function validatorFor(name: RequestSchemaName | ResponseSchemaName, asArray: boolean): ValidateFunction {
	const cacheKey = asArray ? `${name}[]` : name;
	let validate = validators.get(cacheKey);
	if (!validate) {
		const ref = { $ref: `discord#/components/schemas/${name}` };
		validate = loadAjv().compile(asArray ? { type: 'array', items: ref } : ref);
		validators.set(cacheKey, validate);
	}
	return validate;
}

/** Validates a body against a schema of Discord's OpenAPI description; `prefix` roots the problem paths. */
export function checkAgainstSpec(
	name: RequestSchemaName | ResponseSchemaName,
	body: unknown,
	prefix: string[] = [],
	asArray = false,
) {
	const validate = validatorFor(name, asArray);
	if (validate(body)) return [];
	return (validate.errors ?? []).map((error): Problem => ({
		path: [...prefix, ...error.instancePath.split('/').filter(Boolean)],
		code: `SCHEMA_${error.keyword.toUpperCase()}`,
		message: `${name}: ${error.message ?? 'invalid'}`,
		source: 'openapi',
	}));
}

/** Compiles the validators the sandbox uses (about 0.5 s), so the first checked request is not slow. */
export function preloadValidators(): void {
	validatorFor('CreateMessageInteractionCallbackRequest', false);
	validatorFor('UpdateMessageInteractionCallbackRequest', false);
	validatorFor('ModalInteractionCallbackRequest', false);
	validatorFor('IncomingWebhookUpdateRequestPartial', false);
	validatorFor('IncomingWebhookRequestPartial', false);
}
