# syntax=docker/dockerfile:1
# The backend-api image (API-key service). Build from the repository root:
#   docker build -f infra/docker/backend-api.Dockerfile -t platform/backend-api:<version> .
# Operator commands run in the same image: node dist/cli/api-keys.js ..., node dist/cli/wallets.js ...,
# node dist/cli/organizations.js ...

# Pin a digest in your registry mirror for fully reproducible builds: node:20-bookworm-slim@sha256:...
ARG NODE_IMAGE=node:20-bookworm-slim

# ---------------------------------------------------------------------------------------------- build
FROM ${NODE_IMAGE} AS build
# corepack installs the exact pnpm of package.json's packageManager field and checks its sha512 hash.
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0 \
    TURBO_TELEMETRY_DISABLED=1 \
    DO_NOT_TRACK=1
WORKDIR /repo

# Dependencies first, from the lockfile alone, so this layer is reused until pnpm-lock.yaml changes.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
# Dependency patches (pnpm-workspace.yaml patchedDependencies) are part of what the lockfile installs.
COPY patches ./patches
RUN corepack pnpm fetch --frozen-lockfile

COPY . .
RUN corepack pnpm install --frozen-lockfile --offline

# Compile backend-api and the workspace packages it depends on (turbo's `...` suffix), nothing else. Through the
# root `build` script (turbo run build): `pnpm exec turbo` would put a relative ./node_modules/.bin first on
# PATH, and turbo, resolving pnpm there, could not start it from the packages' folders.
RUN corepack pnpm run build --filter=@platform/backend-api...

# A self-contained copy of backend-api: its dist/, its production dependencies, and each workspace package
# it uses as a plain copy of that package's published files (dist/, and migrations/ for @platform/db).
# --legacy: the default deploy of pnpm 10 needs inject-workspace-packages, which this workspace leaves off.
# --prefer-offline, not --offline: `pnpm fetch` stored the packages but not the registry metadata deploy
# resolves against, so --offline fails with ERR_PNPM_NO_OFFLINE_META.
RUN corepack pnpm --filter @platform/backend-api deploy --prod --legacy --prefer-offline /out

# -------------------------------------------------------------------------------------------- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3001
WORKDIR /app

# The code stays owned by root: the service (user node) can read it but not change it.
COPY --from=build /out ./

# Local document storage (DOCUMENT_STORAGE=local, DOCUMENT_LOCAL_DIR=/data/documents): a volume mounted here starts
# with this folder's owner, so the service can write its encrypted files there and nothing else can read them.
RUN mkdir -p /data/documents && chown -R node:node /data && chmod 700 /data/documents

USER node
EXPOSE 3001

# Slim images have no curl; Node 20's fetch does the probe.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3001) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# node is PID 1 and handles SIGTERM itself: the service drains in-flight requests (up to 10 s), then exits.
CMD ["node", "dist/server.js"]
