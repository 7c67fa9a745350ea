#!/usr/bin/env bash
# Provision a Docker engine and Compose v2 on a bare Debian/Ubuntu host (as root).
# Idempotent: an engine that already answers `docker info` and a compose plugin that already
# answers `docker compose version` are left alone, and then root is not needed.
set -euo pipefail

COMPOSE_VERSION="${COMPOSE_VERSION:-v2.29.7}"
PLUGIN_DIR="${DOCKER_CLI_PLUGIN_DIR:-/usr/local/lib/docker/cli-plugins}"
log() { printf '[provision-docker] %s\n' "$*" >&2; }

need_root() {
  if [ "$(id -u)" != 0 ]; then log "must run as root to $1"; exit 1; fi
}

if ! docker info >/dev/null 2>&1; then
  need_root "install and start dockerd (no engine answers docker info)"
  if ! command -v dockerd >/dev/null 2>&1; then
    log "installing docker.io from the distribution's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq docker.io >/dev/null
  fi
  log "starting dockerd"
  mkdir -p /var/log
  nohup dockerd >/var/log/dockerd.log 2>&1 &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
  if ! docker info >/dev/null 2>&1; then
    log "dockerd did not come up; last log lines:"; tail -n 30 /var/log/dockerd.log >&2; exit 1
  fi
fi
log "engine: $(docker info --format '{{.ServerVersion}}')"

if ! docker compose version >/dev/null 2>&1; then
  need_root "install the compose plugin into $PLUGIN_DIR"
  log "building docker compose ${COMPOSE_VERSION} from the Go module proxy"
  gobin="$(mktemp -d)"
  GOBIN="$gobin" CGO_ENABLED=0 go install -ldflags "-X github.com/docker/compose/v2/internal.Version=${COMPOSE_VERSION}" "github.com/docker/compose/v2/cmd@${COMPOSE_VERSION}"
  mkdir -p "$PLUGIN_DIR"
  install -m 0755 "$gobin/cmd" "$PLUGIN_DIR/docker-compose"
  rm -rf "$gobin"
fi
log "compose: $(docker compose version --short)"
