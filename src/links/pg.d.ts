// The slice of `pg` (installed with @keyv/postgres; no @types/pg in the tree) that our adapter and tests use.
declare module 'pg' {
	import type { EventEmitter } from 'node:events';

	export interface PoolConfig {
		connectionString?: string;
		application_name?: string;
		connectionTimeoutMillis?: number;
		query_timeout?: number;
		idleTimeoutMillis?: number;
		max?: number;
		[option: string]: unknown;
	}

	export interface QueryResult<Row> {
		rows: Row[];
		rowCount: number | null;
	}

	export interface DatabaseError extends Error {
		code?: string;
	}

	export class Pool extends EventEmitter {
		constructor(config?: PoolConfig);
		query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<Row>>;
		end(): Promise<void>;
	}

	export class Client extends EventEmitter {
		constructor(config?: PoolConfig);
		connect(): Promise<void>;
		query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<Row>>;
		end(): Promise<void>;
	}

	const pg: { Pool: typeof Pool; Client: typeof Client };
	export default pg;
}
