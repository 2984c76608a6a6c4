/** One step of the demo as Discord would show it: what was run and the message the bot left. */
export interface DemoStep {
	title: string;
	command: string;
	isPrivate: boolean;
	content: string;
	embeds: Record<string, unknown>[];
	buttons: string[];
	/** Attachment name -> relative path of the saved file. */
	images: Record<string, string>;
	/** Other attachments (the CSV export): name -> relative path. */
	files?: Record<string, string>;
}

const escapeHtml = (text: string) =>
	text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A small subset of Discord markdown: bold, inline code, timestamps and mentions, enough to read the demo. */
function renderMarkdown(text: string): string {
	return escapeHtml(text)
		.replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
		.replace(/`([^`]+)`/g, '<code>$1</code>')
		.replace(/&lt;t:(\d+)(?::([a-zA-Z]))?&gt;/g, (_m, unix: string) => {
			const date = new Date(Number(unix) * 1000);
			return `<span class="ts">${date.toISOString().replace('T', ' ').slice(0, 16)} UTC</span>`;
		})
		.replace(/&lt;@(\d+)&gt;/g, '<span class="mention">@member</span>')
		.replace(/\\([*_`~|>\\])/g, '$1')
		.replace(/\n/g, '<br>');
}

function renderEmbed(embed: Record<string, unknown>, images: Record<string, string>): string {
	const color = typeof embed.color === 'number' ? `#${embed.color.toString(16).padStart(6, '0')}` : '#5865f2';
	const fields = (embed.fields as { name: string; value: string; inline?: boolean }[] | undefined) ?? [];
	const image = (embed.image as { url?: string } | undefined)?.url ?? '';
	// Discord (and the stand-in) rewrite `attachment://NAME` to a CDN URL that ends in the file name.
	const imageName = image.split(/[/:]/).at(-1) ?? '';
	const footer = (embed.footer as { text?: string } | undefined)?.text;
	const author = (embed.author as { name?: string } | undefined)?.name;
	return `<div class="embed" style="border-color:${color}">
		${author ? `<div class="author">${renderMarkdown(author)}</div>` : ''}
		${embed.title ? `<div class="title">${renderMarkdown(String(embed.title))}</div>` : ''}
		${embed.description ? `<div class="desc">${renderMarkdown(String(embed.description))}</div>` : ''}
		<div class="fields">${fields
			.map(
				(f) =>
					`<div class="field${f.inline ? ' inline' : ''}"><div class="fname">${renderMarkdown(f.name)}</div><div class="fvalue">${renderMarkdown(f.value)}</div></div>`,
			)
			.join('')}</div>
		${imageName && images[imageName] ? `<img class="chart" src="${escapeHtml(images[imageName])}" alt="chart">` : ''}
		${footer ? `<div class="footer">${renderMarkdown(footer)}</div>` : ''}
	</div>`;
}

/** A standalone HTML page that renders the replies roughly as Discord's dark theme shows them. */
export function renderDemoPage(steps: DemoStep[], locale = 'en-US'): string {
	const body = steps
		.map(
			(step) => `<section>
	<h2>${escapeHtml(step.title)}</h2>
	<div class="invocation">used <code>${escapeHtml(step.command)}</code></div>
	<div class="message">
		<div class="avatar">AS</div>
		<div class="bubble">
			<div class="name">Ad Stats <span class="bot">APP</span></div>
			${step.content ? `<div class="content">${renderMarkdown(step.content)}</div>` : ''}
			${step.embeds.map((e) => renderEmbed(e, step.images)).join('')}
			${Object.entries(step.files ?? {})
				.map(([name, path]) => `<a class="file" href="${escapeHtml(path)}">📄 ${escapeHtml(name)}</a>`)
				.join('')}
			${step.buttons.map((b) => `<span class="button">${escapeHtml(b)}</span>`).join('')}
			${step.isPrivate ? '<div class="ephemeral">Only you can see this</div>' : ''}
		</div>
	</div>
</section>`,
		)
		.join('\n');
	return `<!doctype html>
<html lang="${escapeHtml(locale)}"><head><meta charset="utf-8"><title>Ad Stats bot: offline demo (${escapeHtml(locale)})</title>
<style>
body{background:#313338;color:#dbdee1;font-family:"gg sans","Noto Sans",Helvetica,Arial,sans-serif;margin:0;padding:24px;max-width:900px}
h1{color:#f2f3f5;font-size:22px} h2{color:#b5bac1;font-size:13px;text-transform:uppercase;letter-spacing:.04em;margin:28px 0 6px}
.invocation{color:#949ba4;font-size:13px;margin-left:56px} code{background:#2b2d31;border-radius:3px;padding:0 4px;font-size:85%}
.message{display:flex;gap:16px;margin-top:4px} .avatar{width:40px;height:40px;border-radius:50%;background:#5865f2;color:#fff;display:flex;align-items:center;justify-content:center;font-weight:700;flex:none}
.name{color:#f2f3f5;font-weight:600} .bot{background:#5865f2;color:#fff;font-size:10px;border-radius:3px;padding:1px 4px;margin-left:4px;vertical-align:middle}
.content{margin:2px 0 4px;line-height:1.4} .embed{background:#2b2d31;border-left:4px solid;border-radius:4px;padding:8px 16px 16px 12px;max-width:520px;margin-top:6px}
.author{font-size:13px;font-weight:600;color:#f2f3f5;margin-top:8px} .title{font-weight:700;color:#f2f3f5;margin-top:8px} .desc{font-size:14px;margin-top:8px;line-height:1.4}
.fields{display:grid;grid-template-columns:repeat(3,1fr);gap:8px;margin-top:8px} .field{grid-column:1/-1;font-size:14px} .field.inline{grid-column:auto}
.fname{font-weight:600;color:#f2f3f5;margin-bottom:2px} .chart{max-width:100%;border-radius:4px;margin-top:16px;display:block}
.footer{font-size:12px;color:#b5bac1;margin-top:8px} .button{display:inline-block;background:#4e5058;color:#fff;border-radius:3px;padding:4px 16px;margin-top:8px;font-size:14px}
.file{display:inline-block;background:#2b2d31;border:1px solid #1e1f22;border-radius:4px;padding:8px 12px;margin-top:6px;color:#00a8fc} .ephemeral{font-size:12px;color:#949ba4;margin-top:6px} .ts{background:#3f4147;border-radius:3px;padding:0 2px} .mention{background:#3c4270;color:#c9cdfb;border-radius:3px;padding:0 2px}
</style></head><body>
<h1>Ad Stats bot: what Discord would show (${escapeHtml(locale)})</h1>
<p><a href="../index.html">All languages</a></p>
<p>Recorded by <code>npm run demo</code> against the local Discord stand-in and the bundled stats service.</p>
${body}
</body></html>
`;
}

/** The demo's front page: one link per language, each to a full recording of the flows. */
export function renderLanguageIndex(locales: readonly string[]): string {
	const links = locales
		.map((locale) => `<li><a href="${escapeHtml(locale)}/index.html">${escapeHtml(locale)}</a></li>`)
		.join('');
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ad Stats bot: offline demo</title>
<style>body{background:#313338;color:#dbdee1;font-family:"gg sans","Noto Sans",Helvetica,Arial,sans-serif;padding:24px} a{color:#00a8fc}</style>
</head><body><h1>Ad Stats bot: what Discord would show</h1>
<p>Recorded by <code>npm run demo</code>: the same flows in each language the bot speaks.</p><ul>${links}</ul></body></html>
`;
}
