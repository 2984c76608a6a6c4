/** What a link tells about itself; never the key. */
export interface LinkInfo {
	/** `meta.user` at link time, or null when the endpoint could not verify the key yet. */
	accountName: string | null;
	/** Epoch ms. */
	linkedAt: number;
	/** False when the endpoint answered "feature unavailable" and the key was stored unverified. */
	verified: boolean;
	/** Discord user id of whoever linked a server key; null for user links. */
	linkedBy: string | null;
	/** The key's last 4 characters, for confirmations: never more of the key. */
	keyHint: string;
}

/** A link as status commands show it. */
export interface LinkStatus extends LinkInfo {
	/**
	 * False when no configured secret (LINK_SECRET, LINK_SECRET_PREVIOUS) opens the stored key: the
	 * link exists but the key has to be set again.
	 */
	readable: boolean;
}

export interface LinkedKey {
	apiKey: string;
	info: LinkInfo;
}

export interface LinkStore {
	/** Validates, verifies with one stats call, encrypts and stores. Throws InvalidKeyError, KeyRejectedError, … */
	linkUser(userId: string, rawKey: string): Promise<LinkInfo>;
	/** null when nothing is linked. Throws RelinkNeededError when the record cannot be decrypted. */
	getUserKey(userId: string): Promise<LinkedKey | null>;
	/** null when nothing is linked. Throws RelinkNeededError only when the record is not a link at all. */
	getUserLink(userId: string): Promise<LinkStatus | null>;
	/** True when a link existed. */
	removeUserLink(userId: string): Promise<boolean>;
	linkServer(guildId: string, rawKey: string, linkedBy: string): Promise<LinkInfo>;
	getServerKey(guildId: string): Promise<LinkedKey | null>;
	getServerLink(guildId: string): Promise<LinkStatus | null>;
	removeServerLink(guildId: string): Promise<boolean>;
	/**
	 * Drops what this process keeps in memory of a record a writer outside this store changed (forgetting a member
	 * rewrites the server link they linked): the next read goes to the store.
	 */
	dropKept(storeKey: string): void;
}
