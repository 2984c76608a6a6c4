import type enUS from './locales/en-US.json';

/** Plural suffixes i18next adds to a key (`Intl.PluralRules` categories). */
export const PLURAL_SUFFIXES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
type PluralSuffix = (typeof PLURAL_SUFFIXES)[number];

type LeafPaths<T, Prefix extends string = ''> = {
	[K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : LeafPaths<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

type WithoutPluralSuffix<K extends string> = K extends `${infer Base}_${PluralSuffix}` ? Base : K;

/** Every key of the catalogue, plural keys by their base name (`embed.age.days`, called with `count`). */
export type MessageKey = WithoutPluralSuffix<LeafPaths<typeof enUS>>;
