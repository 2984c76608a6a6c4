import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storeOperationOf } from '../../src/app/store-error-kind.js';
import { StorageUnavailableError } from '../../src/errors.js';
import { StoreDeadlineError } from '../../src/store/with-deadline.js';

function withCode(code: string): Error {
	return Object.assign(new Error(`connect ${code} 127.0.0.1:6379`), { code });
}

describe('the operation a store error is counted under', () => {
	it('a refused, reset or lost connection is `connect`, also when it is the cause', () => {
		assert.equal(storeOperationOf(withCode('ECONNREFUSED')), 'connect');
		assert.equal(storeOperationOf(withCode('ECONNRESET')), 'connect');
		assert.equal(
			storeOperationOf(Object.assign(new Error('Socket closed'), { name: 'SocketClosedUnexpectedlyError' })),
			'connect',
		);
		assert.equal(storeOperationOf(new Error('Connection terminated unexpectedly')), 'connect');
		assert.equal(storeOperationOf(new StorageUnavailableError({ cause: withCode('ECONNREFUSED') })), 'connect');
	});

	it('anything else is `other`: the store does not say which operation met it', () => {
		assert.equal(storeOperationOf(new StorageUnavailableError({ cause: new StoreDeadlineError(3000) })), 'other');
		assert.equal(storeOperationOf(new Error('SQLITE_FULL: database or disk is full')), 'other');
		assert.equal(storeOperationOf('a string'), 'other');
	});
});
