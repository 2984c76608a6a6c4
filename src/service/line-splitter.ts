import { isUtf8 } from 'node:buffer';

/** Receives each line of a byte stream, numbered from 1, or the reason it could not be read. */
export interface LineSink {
	line(lineNumber: number, text: string): void;
	badLine(lineNumber: number, reason: string): void;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

function describeSize(bytes: number): string {
	return bytes % 1_048_576 === 0 ? `${bytes / 1_048_576} MiB` : `${bytes} bytes`;
}

/**
 * Splits a byte stream into UTF-8 lines (LF or CRLF) without ever holding more than `maxBytes` of one line:
 * the rest of a longer line is counted and dropped, and the line is reported as too long. A first-line BOM
 * is dropped. Feed it with `push` and finish with `end`.
 */
export class LineSplitter {
	private pending: Buffer[] = [];
	private pendingBytes = 0;
	private tooLong = false;
	private lineNumber = 0;

	constructor(
		private readonly maxBytes: number,
		private readonly sink: LineSink,
	) {}

	push(chunk: Buffer): void {
		let start = 0;
		for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
			// The common case, a whole line inside one chunk, is read in place without a copy.
			if (this.pendingBytes === 0 && !this.tooLong) this.finishLine(chunk.subarray(start, end));
			else {
				this.append(chunk.subarray(start, end));
				this.finishLine();
			}
			start = end + 1;
		}
		if (start < chunk.length) this.append(chunk.subarray(start));
	}

	/** Emits the last line when the stream does not end with a newline. */
	end(): void {
		if (this.pendingBytes > 0 || this.tooLong) this.finishLine();
	}

	private append(piece: Buffer): void {
		if (piece.length === 0) return;
		this.pendingBytes += piece.length;
		// One byte of slack: a CR before the LF is not part of the line.
		if (this.pendingBytes > this.maxBytes + 1) {
			this.tooLong = true;
			this.pending = [];
		} else if (!this.tooLong) this.pending.push(piece);
	}

	private finishLine(whole?: Buffer): void {
		this.lineNumber += 1;
		let bytes = whole ?? (this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending));
		const wasTooLong = this.tooLong;
		this.pending = [];
		this.pendingBytes = 0;
		this.tooLong = false;
		if (bytes.at(-1) === CARRIAGE_RETURN) bytes = bytes.subarray(0, -1);
		if (wasTooLong || bytes.length > this.maxBytes) {
			this.sink.badLine(this.lineNumber, `line ${this.lineNumber}: too long (over ${describeSize(this.maxBytes)})`);
			return;
		}
		if (this.lineNumber === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
		if (!isUtf8(bytes)) return this.sink.badLine(this.lineNumber, 'not valid UTF-8');
		this.sink.line(this.lineNumber, bytes.toString('utf8'));
	}
}
