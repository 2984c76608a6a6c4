const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** True when the bytes start with the PNG signature followed by an IHDR chunk. */
export function isPng(bytes: Uint8Array): boolean {
	if (bytes.length < 24) return false;
	const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	return buffer.subarray(0, 8).equals(PNG_SIGNATURE) && buffer.toString('latin1', 12, 16) === 'IHDR';
}

/** Width and height from a PNG's IHDR chunk, or null when the bytes are not a PNG. */
export function readPngSize(bytes: Uint8Array): { width: number; height: number } | null {
	if (!isPng(bytes)) return null;
	const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	return { width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20) };
}
