// The types of scripts/build.mjs, which stays plain JavaScript so that `npm ci` can run it before anything else.
/** The bundle's folder. */
export declare const DIST: string;
/** Builds the bundle into DIST unless the one there was built from the same source; resolves to whether it built. */
export declare function buildBundle(): Promise<boolean>;
