import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The project's folder. This module runs from src/ under tsx and from a chunk of the bundle in dist/ under
 * `npm start` (scripts/build.mjs); both sit one level below it, so one relative path serves both.
 */
export const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface PackageJson {
	name: string;
	version: string;
	engines?: { node?: string };
}

/** The project's package.json, read when asked: the user agent and the doctor name what it says. */
export function readPackageJson(): PackageJson {
	return JSON.parse(readFileSync(`${PROJECT_ROOT}package.json`, 'utf8')) as PackageJson;
}
