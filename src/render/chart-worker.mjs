// Node 20's module hooks do not reach worker threads, so a pool worker cannot import the .ts task directly; this
// plain module loads it through tsx's API.
import { tsImport } from 'tsx/esm/api';

const task = await tsImport('./chart-worker.ts', import.meta.url);

export default task.default;
