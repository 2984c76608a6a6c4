import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { encodeOpaquePng, isPng, readPngSize } from '../../src/render/png.js';

async function decode(png: Buffer): Promise<Uint8ClampedArray> {
	const image = await loadImage(png);
	const canvas = createCanvas(image.width, image.height);
	const context = canvas.getContext('2d');
	context.drawImage(image, 0, 0);
	return context.getImageData(0, 0, image.width, image.height).data;
}

/** A 7x5 opaque test card: every pixel a different colour, so a shifted row or channel shows. */
function testCard(width = 7, height = 5): Uint8Array {
	const rgba = new Uint8Array(width * height * 4);
	for (let index = 0; index < width * height; index++) {
		rgba.set([(index * 37) % 256, (index * 91) % 256, (index * 13 + 200) % 256, 255], index * 4);
	}
	return rgba;
}

test('the opaque encoder writes an RGB PNG that decodes to the same pixels', async () => {
	const rgba = testCard();
	const png = await encodeOpaquePng(rgba, 7, 5);
	assert.ok(png);
	assert.ok(isPng(png));
	assert.deepEqual(readPngSize(png), { width: 7, height: 5 });
	assert.equal(png[25], 2, 'colour type RGB: no alpha channel to carry');
	assert.deepEqual([...(await decode(png))], [...rgba]);
	assert.equal(png.subarray(-12, -8).readUInt32BE(0), 0, 'IEND has no data');
	assert.equal(png.toString('latin1', png.length - 8, png.length - 4), 'IEND');
});

test('the opaque encoder declines pixels that are not fully opaque', async () => {
	const rgba = testCard();
	rgba[4 * 17 + 3] = 254;
	assert.equal(await encodeOpaquePng(rgba, 7, 5), null);
});

test('the opaque encoder refuses a pixel buffer of the wrong size', async () => {
	await assert.rejects(encodeOpaquePng(new Uint8Array(10), 7, 5), RangeError);
});

test('isPng and readPngSize reject bytes that are not a PNG', () => {
	assert.equal(isPng(Buffer.from('<html>not a png at all, no</html>')), false);
	assert.equal(isPng(new Uint8Array(4)), false);
	assert.equal(readPngSize(Buffer.from('GIF89a................................')), null);
});

test('readPngSize reads the size from a PNG inside a larger buffer', async () => {
	const png = await createCanvas(31, 17).encode('png');
	const padded = Buffer.concat([Buffer.alloc(5), png]);
	assert.deepEqual(readPngSize(padded.subarray(5)), { width: 31, height: 17 });
});
