// `npm run doctor [-- --json]`: checks the bot's environment, read-only, and prints one line per check
// (or JSON); exit 1 when any check fails, and on a usage error (DESIGN: 0 with no fail, 1 with any).
import { loadDotEnv } from '../../config.js';
import { formatJson, formatText } from './check.js';
import { runDoctor } from './run-doctor.js';

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--json');
if (unknown.length > 0) {
	process.stderr.write(`doctor: unknown argument ${unknown[0]} (the only option is --json)\n`);
	process.exit(1);
}
loadDotEnv();
const report = await runDoctor(process.env);
process.stdout.write(args.includes('--json') ? formatJson(report) : formatText(report));
// Exit explicitly: a store or socket that never answered may still hold the event loop.
process.exitCode = report.fail > 0 ? 1 : 0;
process.stdout.write('', () => process.exit());
