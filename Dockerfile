# One image for every command: the bot by default, or `npm run web | register | doctor | links -- … | data -- …`
# given as the container's command. README "Run it with Docker"; docs/containers.md for what is inside and why.

# Dependencies: the full image has python3, make and g++, so the native modules (better-sqlite3, sqlite3) build here.
FROM node:20-bookworm AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Without the project's own `prepare` (it builds the bundle, and the source is not here yet), then the packages' own
# install scripts (the native builds). This layer and the next stage depend on the lock file alone, so a change to
# the source rebuilds neither.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild --no-audit --no-fund && rm -rf /root/.npm

# Production dependencies only, then what none of them reads at run time: the native modules' sources and object
# files (their .node files stay), every font weight the chart renderer does not register
# (src/render/local-renderer.ts: DejaVu Sans regular and bold, Noto Sans JP regular), and TypeScript (23 MB),
# which stays after the prune only as i18next's optional peer dependency, for its type declarations.
FROM deps AS production-deps
RUN npm prune --omit=dev --no-audit --no-fund \
	&& rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
		node_modules/better-sqlite3/build/Release/obj* node_modules/better-sqlite3/build/Release/.deps \
		node_modules/better-sqlite3/build/Release/test_extension.node \
		node_modules/sqlite3/deps node_modules/sqlite3/src \
		node_modules/sqlite3/build/Release/obj* node_modules/sqlite3/build/Release/.deps \
	&& find node_modules/better-sqlite3/build node_modules/sqlite3/build -type f ! -name '*.node' \
		! -path '*/Release/*' -delete \
	&& find node_modules/@expo-google-fonts/noto-sans-jp -mindepth 1 -maxdepth 1 -type d ! -name 400Regular \
		-exec rm -rf {} + \
	&& find node_modules/dejavu-fonts-ttf/ttf -type f ! -name DejaVuSans.ttf ! -name DejaVuSans-Bold.ttf -delete \
	&& rm -rf node_modules/typescript /root/.npm

# The bundle `npm start` runs (scripts/build.mjs), built from the source with the full dependencies.
FROM deps AS build
COPY tsconfig.json ./
COPY scripts/build.mjs scripts/container-healthcheck.mjs ./scripts/
COPY commands ./commands
COPY src ./src
RUN npm run build

# Runtime stage: the slim image, on the same Debian release as the build stage (the .node files need its glibc).
FROM node:20-bookworm-slim
# npm runs only the one-off commands here (`npm run doctor`): no registry check on each of them.
ENV NODE_ENV=production \
	NPM_CONFIG_UPDATE_NOTIFIER=false \
	METRICS_PORT=9464 \
	METRICS_HOST=127.0.0.1
WORKDIR /app
# Owned by root and read-only to the bot: it writes only to its store (Redis, PostgreSQL, or a volume for SQLite).
COPY --from=build /app/package.json /app/package-lock.json /app/tsconfig.json ./
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/commands ./commands
COPY --from=build /app/src ./src
# A SQLite store (STORE_URL=sqlite://data/bot.sqlite, the default) needs a folder the bot may write: mount a volume.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
# /healthz answers 200 once the gateway is ready (or the HTTP interactions listener is up) and the store answers.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
	CMD ["node", "scripts/container-healthcheck.mjs"]
# node as PID 1, no npm in between: SIGTERM reaches the bot, which drains its replies and exits 0.
CMD ["node", "dist/main.js"]
